/* Strict inputs through the C ABI: authorization JSON given to the plan
 * builder and payload _meta given to the payload builder are held to the
 * rules definitions are held to (nesting at most 127 deep, no repeated key
 * at any depth, no lone surrogate, no non-finite number); templates equal
 * up to their variable names are refused at build; a definition's standard
 * members are checked by mcpr_builder_add, naming the member refused, and
 * listed per revision without the members it does not define. */
#include <stdlib.h>

#include "harness.h"

/* `depth` nested arrays: "[[...]]" (malloc'd). */
static char *nested(size_t depth) {
    char *s = malloc(2 * depth + 1);
    memset(s, '[', depth);
    memset(s + depth, ']', depth);
    s[2 * depth] = 0;
    return s;
}

/* ---------------------------------------------------------------- authorization */

typedef struct {
    const char *auth;         /* the authorization JSON every target gets */
    mcpr_status set_status;   /* what mcpr_plan_set_requested returned */
    char message[256];        /* its error message */
    char seen[64];            /* the authorization a reader saw (prefix) */
} auth_case;

static mcpr_cb_result auth_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                   mcpr_plan_builder *plan) {
    auth_case *c = ud;
    (void)call;
    mcpr_error *e = NULL;
    c->set_status = mcpr_plan_set_requested(plan, mcpr_match_uri(m), S(""), str_of(c->auth), &e);
    c->message[0] = 0;
    if (e) {
        mcpr_str msg = mcpr_error_message(e);
        size_t n = msg.len < sizeof c->message - 1 ? msg.len : sizeof c->message - 1;
        memcpy(c->message, msg.ptr, n);
        c->message[n] = 0;
        CHECK(mcpr_error_status(e) == MCPR_INVALID_PLAN);
        mcpr_error_free(e);
    }
    /* The same target as the single item (refused alike when bad). */
    mcpr_status item = mcpr_plan_add_item(plan, mcpr_match_uri(m), S(""), str_of(c->auth), NULL);
    CHECK(item == c->set_status);
    return MCPR_CB_OK;
}

static mcpr_cb_result auth_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                mcpr_payload_builder *out) {
    auth_case *c = ud;
    (void)call;
    mcpr_str a = mcpr_target_authorization(t);
    size_t n = a.len < sizeof c->seen - 1 ? a.len : sizeof c->seen - 1;
    memcpy(c->seen, a.ptr, n);
    c->seen[n] = 0;
    return mcpr_payload_set_text(out, S("text/plain"), S("ok"), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                : MCPR_CB_FAILED;
}

/* Reads once with `auth` as every target's authorization; returns the read status. */
static mcpr_status read_with_auth(const char *auth, auth_case *c) {
    host_policy hp = {0};
    mcpr_builder *b = host_builder(&hp);
    memset(c, 0, sizeof *c);
    c->auth = auth;
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = c,
        .resolve = auth_resolve,
        .read = auth_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"auth://x\",\"name\":\"x\"}"), &cb, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    if (!r) return MCPR_INTERNAL;
    mcpr_status s = host_read(r, "auth://x", NULL, NULL, NULL, NULL);
    mcpr_resources_free(r);
    return s;
}

static void test_strict_authorization(void) {
    char *deep128 = nested(128), *deep10000 = nested(10000), *deep127 = nested(127);
    struct {
        const char *auth;
        const char *says;
    } bad[] = {
        {deep128, "nesting too deep"},
        {deep10000, "nesting too deep"},
        {"{\"tenant\":\"a\",\"tenant\":\"b\"}", "repeats an object key"},
        {"{\"x\":[{\"k\":1,\"\\u006b\":2}]}", "repeats an object key"},
        {"\"\\ud800\"", "not valid JSON"},
        {"{\"k\":\"\\udc00\"}", "not valid JSON"},
        {"1e999", "invalid number"},
        {"{\"n\":[-1e400]}", "invalid number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        auth_case c;
        CHECK_STATUS(read_with_auth(bad[i].auth, &c), MCPR_INVALID_PLAN);
        CHECK_STATUS(c.set_status, MCPR_INVALID_PLAN);
        if (!strstr(c.message, bad[i].says)) {
            fprintf(stderr, "case %zu: message \"%s\" lacks \"%s\"\n", i, c.message, bad[i].says);
            CHECK(!"authorization refusal names its rule");
        }
        CHECK(c.seen[0] == 0); /* no body was read */
    }
    const char *good[] = {deep127, "{\"tenant\":\"t\",\"scopes\":[\"r\"]}", "1e308",
                          "\"\\ud83d\\ude00\"", "{\"go.phpboyscout.uk/mcp.resourceRead\":1}"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        auth_case c;
        CHECK_STATUS(read_with_auth(good[i], &c), MCPR_OK);
        CHECK_STATUS(c.set_status, MCPR_OK);
        CHECK(strncmp(c.seen, good[i], sizeof c.seen - 1) == 0); /* kept byte for byte */
    }
    free(deep128);
    free(deep10000);
    free(deep127);
}

/* ---------------------------------------------------------------- payload _meta */

typedef struct {
    const char *meta;
    mcpr_status set_status;
    char message[256];
} meta_case;

static mcpr_cb_result meta_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                mcpr_payload_builder *out) {
    meta_case *c = ud;
    (void)call;
    (void)t;
    CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("x"), NULL), MCPR_OK);
    mcpr_error *e = NULL;
    c->set_status = mcpr_payload_set_meta(out, str_of(c->meta), &e);
    c->message[0] = 0;
    if (e) {
        mcpr_str msg = mcpr_error_message(e);
        size_t n = msg.len < sizeof c->message - 1 ? msg.len : sizeof c->message - 1;
        memcpy(c->message, msg.ptr, n);
        c->message[n] = 0;
        CHECK(mcpr_error_status(e) == MCPR_INVALID_CONTENT);
        mcpr_error_free(e);
    }
    return MCPR_CB_OK;
}

static mcpr_status read_with_meta(const char *meta, meta_case *c, char **json) {
    host_policy hp = {0};
    mcpr_builder *b = host_builder(&hp);
    memset(c, 0, sizeof *c);
    c->meta = meta;
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = c,
        .resolve = mcpr_resolve_single,
        .read = meta_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"meta://x\",\"name\":\"x\"}"), &cb, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    if (!r) return MCPR_INTERNAL;
    mcpr_status s = host_read(r, "meta://x", NULL, json, NULL, NULL);
    mcpr_resources_free(r);
    return s;
}

static void test_strict_meta(void) {
    char *inner127 = nested(127), *inner126 = nested(126);
    char deep[300], ok_deep[300];
    snprintf(deep, sizeof deep, "{\"a\":%s}", inner127);      /* 128 deep */
    snprintf(ok_deep, sizeof ok_deep, "{\"a\":%s}", inner126); /* 127 deep */
    struct {
        const char *meta;
        const char *says;
    } bad[] = {
        {deep, "nesting too deep"},
        {"{\"a\":1,\"a\":2}", "repeats an object key"},
        {"{\"a\":{\"b\":[{\"c\":1,\"c\":1}]}}", "repeats an object key"},
        {"{\"a\":\"\\ud800\"}", "not valid JSON"},
        {"{\"n\":1e999}", "invalid number"},
        {"{\"a\":[{\"go.phpboyscout.uk/mcp.resourceRead\":1}]}", "reserved key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        meta_case c;
        char *json = NULL;
        /* The only item is invalid content, so the whole read fails. */
        CHECK_STATUS(read_with_meta(bad[i].meta, &c, &json), MCPR_INVALID_CONTENT);
        CHECK_STATUS(c.set_status, MCPR_INVALID_CONTENT);
        if (!strstr(c.message, bad[i].says)) {
            fprintf(stderr, "case %zu: message \"%s\" lacks \"%s\"\n", i, c.message, bad[i].says);
            CHECK(!"_meta refusal names its rule");
        }
        free(json);
    }
    const char *good[] = {ok_deep, "{\"k\":{\"a\":[1]},\"l\":\"\\ud83d\\ude00\"}", "{\"n\":1e308}"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        meta_case c;
        char *json = NULL;
        CHECK_STATUS(read_with_meta(good[i], &c, &json), MCPR_OK);
        CHECK_STATUS(c.set_status, MCPR_OK);
        CHECK(json && strstr(json, "\"_meta\":{\""));
        free(json);
    }
    free(inner127);
    free(inner126);
}

/* ---------------------------------------------------------------- template shapes */

/* Builds a registry of `defs`; returns the build status and the error message. */
static mcpr_status build_defs(const char *const *defs, size_t n, char *message, size_t cap) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_builder *b = host_builder(&hp);
    for (size_t i = 0; i < n; i++) CHECK_STATUS(host_add(b, defs[i], &hb), MCPR_OK);
    mcpr_resources *r = NULL;
    mcpr_error *e = NULL;
    mcpr_status s = mcpr_builder_build(b, &r, &e);
    message[0] = 0;
    if (e) {
        mcpr_str msg = mcpr_error_message(e);
        size_t len = msg.len < cap - 1 ? msg.len : cap - 1;
        memcpy(message, msg.ptr, len);
        message[len] = 0;
        mcpr_error_free(e);
    }
    mcpr_resources_free(r);
    return s;
}

static void test_same_shape_templates(void) {
    char message[256];
    const char *same[] = {"{\"uriTemplate\":\"a://x/{id}\",\"name\":\"one\"}",
                          "{\"uriTemplate\":\"a://x/{name}\",\"name\":\"two\"}"};
    CHECK_STATUS(build_defs(same, 2, message, sizeof message), MCPR_INVALID_CONFIGURATION);
    CHECK(strstr(message, "duplicate") && strstr(message, "variable names"));
    const char *literal[] = {"{\"uriTemplate\":\"a://x/{id}\",\"name\":\"one\"}",
                             "{\"uriTemplate\":\"a://y/{id}\",\"name\":\"two\"}",
                             "{\"uriTemplate\":\"a://x/{id}/z\",\"name\":\"three\"}"};
    CHECK_STATUS(build_defs(literal, 3, message, sizeof message), MCPR_OK);
    const char *exact[] = {"{\"uriTemplate\":\"a://x/{id}\",\"name\":\"t\"}",
                           "{\"uri\":\"a://x/1\",\"name\":\"e\"}"};
    CHECK_STATUS(build_defs(exact, 2, message, sizeof message), MCPR_OK);
}

/* ---------------------------------------------------------------- definition members */

static void test_definition_members(void) {
    struct {
        const char *def;
        const char *names; /* what the message must name */
    } refused[] = {
        {"{\"uriTemplate\":\"a://t/{id}\",\"name\":\"t\",\"size\":1}", "size"},
        {"{\"uri\":\"a://x\",\"name\":\"x\",\"size\":-1}", "size"},
        {"{\"uri\":\"a://x\",\"name\":\"x\",\"annotations\":{\"priority\":1.5}}", "annotations.priority"},
        {"{\"uri\":\"a://x\",\"name\":\"x\",\"annotations\":{\"audience\":[\"system\"]}}", "annotations.audience"},
        {"{\"uri\":\"a://x\",\"name\":\"x\",\"annotations\":{\"lastModified\":\"2025-01-12\"}}",
         "annotations.lastModified"},
        {"{\"uri\":\"a://x\",\"name\":\"x\",\"icons\":[{\"src\":\"/icon.png\"}]}", "icons[].src"},
        {"{\"uri\":\"a://x\",\"name\":\"x\",\"title\":7}", "title"},
    };
    host_binding hb = {0};
    mcpr_binding_callbacks cb = host_binding_table(&hb);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        mcpr_builder *b = mcpr_builder_new();
        mcpr_error *e = NULL;
        CHECK_STATUS(mcpr_builder_add(b, str_of(refused[i].def), &cb, &e), MCPR_INVALID_CONFIGURATION);
        CHECK(e && mcpr_error_status(e) == MCPR_INVALID_CONFIGURATION);
        CHECK(e && str_contains(mcpr_error_message(e), refused[i].names));
        mcpr_error_free(e);
        mcpr_builder_free(b);
    }
    /* a valid one is listed whole on 2025-11-25 and without title, icons,
     * _meta and lastModified on 2025-03-26 */
    host_policy hp = {0};
    mcpr_builder *b = host_builder(&hp);
    CHECK_STATUS(host_add(b,
                          "{\"uri\":\"a://x\",\"name\":\"x\",\"title\":\"X\",\"annotations\":{\"priority\":1,"
                          "\"lastModified\":\"2025-01-12T15:00:58Z\"},\"icons\":[{\"src\":\"https://e.example/i.png\"}],"
                          "\"_meta\":{\"k\":1}}",
                          &hb),
                 MCPR_OK);
    mcpr_resources *r = host_build(b);
    const char *revisions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};
    const char *want[] = {
        "{\"resources\":[{\"uri\":\"a://x\",\"name\":\"x\",\"title\":\"X\",\"annotations\":{\"priority\":1,"
        "\"lastModified\":\"2025-01-12T15:00:58Z\"},\"icons\":[{\"src\":\"https://e.example/i.png\"}],\"_meta\":{\"k\":1}}]}",
        "{\"resources\":[{\"uri\":\"a://x\",\"name\":\"x\",\"title\":\"X\",\"annotations\":{\"priority\":1,"
        "\"lastModified\":\"2025-01-12T15:00:58Z\"},\"_meta\":{\"k\":1}}]}",
        "{\"resources\":[{\"uri\":\"a://x\",\"name\":\"x\",\"annotations\":{\"priority\":1}}]}",
    };
    for (int i = 0; i < 3; i++) {
        mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
        lo.scope_key = S("tenant");
        lo.protocol_revision = str_of(revisions[i]);
        mcpr_page *page = NULL;
        CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_OK);
        CHECK(page && str_eq(mcpr_page_json(page), want[i]));
        mcpr_page_free(page);
    }
    mcpr_resources_free(r);
}

int main(void) {
    test_strict_authorization();
    test_strict_meta();
    test_same_shape_templates();
    test_definition_members();
    return harness_finish("test_strict");
}
