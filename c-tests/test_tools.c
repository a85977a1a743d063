/* Resources in tool results: mcpr_embed (embedded resources exactly as a
 * read gives them, links from registered descriptions, nothing for hidden
 * targets), the resource tools (mcpr_resource_tools_definitions,
 * mcpr_resource_tools_call, and tools/call through mcpr_request), every
 * pointer checked, and the growth of mcpr_embed_options and
 * mcpr_request_options.resource_tools. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

static const char *DEFS[] = {
    "{\"uri\":\"doc://a\",\"name\":\"a\",\"title\":\"A\",\"mimeType\":\"text/plain\"}",
    "{\"uri\":\"doc://b\",\"name\":\"b\"}",
    "{\"uri\":\"doc://hidden\",\"name\":\"hidden\"}",
    "{\"uri\":\"doc://nodiscover\",\"name\":\"nodiscover\"}",
    "{\"uri\":\"doc://denied\",\"name\":\"denied\"}",
    "{\"uriTemplate\":\"tpl://t/{id}\",\"name\":\"t\"}",
};

static mcpr_resources *registry(host_policy *hp, host_binding *hb, int64_t max_item_bytes) {
    mcpr_builder *b = host_builder(hp);
    if (max_item_bytes) CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_ITEM_BYTES, max_item_bytes, NULL), MCPR_OK);
    for (size_t i = 0; i < sizeof DEFS / sizeof DEFS[0]; i++) CHECK_STATUS(host_add(b, DEFS[i], hb), MCPR_OK);
    return host_build(b);
}

static char *dup_str(mcpr_str s) {
    char *out = malloc(s.len + 1);
    memcpy(out, s.ptr, s.len);
    out[s.len] = 0;
    return out;
}

static mcpr_embedding *embed(const mcpr_resources *r, const mcpr_str *uris, size_t n, const mcpr_embed_options *o) {
    mcpr_embedding *e = NULL;
    mcpr_error *err = NULL;
    mcpr_status s = mcpr_embed(r, uris, n, o, &e, &err);
    CHECK_STATUS(s, MCPR_OK);
    if (s != MCPR_OK) show_error("embed", err);
    return e;
}

/* Each embedded block is {"type":"resource","resource":ITEM} with the
 * read's ITEM, byte for byte. */
static void embedding_returns_exactly_what_a_read_would(void) {
    host_policy hp = {.hidden = {"doc://hidden"}};
    host_binding hb = {.items = {"item://ok/1", "item://blob/2"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    const char *revisions[] = {"2025-06-18", "2025-11-25", "2026-07-28"};
    for (int i = 0; i < 3; i++) {
        mcpr_embed_options o = MCPR_EMBED_OPTIONS_INIT;
        o.protocol_revision = str_of(revisions[i]);
        mcpr_str uris[] = {S("doc://a")};
        mcpr_embedding *e = embed(r, uris, 1, &o);
        mcpr_read_options ro = MCPR_READ_OPTIONS_INIT;
        ro.protocol_revision = str_of(revisions[i]);
        char *read = NULL;
        CHECK_STATUS(host_read(r, "doc://a", &ro, &read, NULL, NULL), MCPR_OK);
        CHECK(mcpr_embedding_block_count(e) == 2);
        CHECK(mcpr_embedding_uri_count(e) == 1);
        CHECK_STATUS(mcpr_embedding_uri_status(e, 0), MCPR_OK);
        CHECK(mcpr_embedding_uri_block_count(e, 0) == 2);
        CHECK(!mcpr_embedding_uri_is_partial(e, 0));
        CHECK(mcpr_embedding_uri_link_count(e, 0) == 0);
        CHECK(mcpr_embedding_uri_cause(e, 0).len == 0);
        for (size_t k = 0; k < 2; k++) {
            mcpr_str block = mcpr_embedding_block(e, k);
            const char *prefix = "{\"type\":\"resource\",\"resource\":";
            CHECK(block.len > strlen(prefix) && memcmp(block.ptr, prefix, strlen(prefix)) == 0);
            /* the item itself appears in the read's result */
            char *item = malloc(block.len);
            size_t n = block.len - strlen(prefix) - 1;
            memcpy(item, block.ptr + strlen(prefix), n);
            item[n] = 0;
            CHECK(read && strstr(read, item) != NULL);
            free(item);
        }
        mcpr_str tool = mcpr_embedding_tool_result_json(e);
        CHECK(str_contains(tool, "{\"content\":[{\"type\":\"resource\""));
        CHECK(str_contains(tool, "\"resultType\":\"complete\"") == (i == 2));
        /* the tool result is made once: the same bytes every time */
        CHECK(mcpr_embedding_tool_result_json(e).ptr == tool.ptr);
        free(read);
        mcpr_embedding_free(e);
    }
    mcpr_resources_free(r);
}

static void nothing_for_hidden_undiscoverable_unregistered_or_invalid_targets(void) {
    host_policy hp = {.hidden = {"doc://hidden"}, .denied = {"doc://denied"}, .deny_discover = {"doc://nodiscover"}};
    host_binding hb = {.items = {"item://ok/1"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    mcpr_str nothing[] = {S("doc://hidden"), S("doc://nodiscover"), S("doc://unregistered"),
                          S("doc://denied"), S("not a uri"), S("tpl://t/.."), S("")};
    mcpr_status want[] = {MCPR_UNAVAILABLE, MCPR_UNAVAILABLE, MCPR_UNAVAILABLE, MCPR_UNAVAILABLE,
                          MCPR_INVALID_REQUEST, MCPR_INVALID_REQUEST, MCPR_INVALID_REQUEST};
    size_t n = sizeof nothing / sizeof nothing[0];
    for (uint32_t form = MCPR_EMBED_RESOURCE; form <= MCPR_EMBED_LINK; form++) {
        mcpr_embed_options o = MCPR_EMBED_OPTIONS_INIT;
        o.form = form;
        mcpr_embedding *e = embed(r, nothing, n, &o);
        CHECK(str_eq(mcpr_embedding_blocks_json(e), "[]"));
        CHECK(mcpr_embedding_block_count(e) == 0);
        CHECK(mcpr_embedding_uri_count(e) == n);
        for (size_t i = 0; i < n; i++) {
            CHECK_STATUS(mcpr_embedding_uri_status(e, i), want[i]);
            CHECK(mcpr_embedding_uri_block_count(e, i) == 0);
            CHECK(!str_contains(mcpr_embedding_blocks_json(e), "SECRET"));
        }
        mcpr_embedding_free(e);
        /* around a visible URI: exactly its blocks */
        mcpr_str one[] = {S("doc://a")};
        mcpr_embedding *alone = embed(r, one, 1, &o);
        mcpr_str mixed[] = {S("doc://hidden"), S("doc://a"), S("doc://unregistered")};
        mcpr_embedding *m = embed(r, mixed, 3, &o);
        char *a = dup_str(mcpr_embedding_blocks_json(alone));
        CHECK(str_eq(mcpr_embedding_blocks_json(m), a));
        free(a);
        mcpr_embedding_free(alone);
        mcpr_embedding_free(m);
    }
    mcpr_resources_free(r);
}

static void links_come_from_registered_descriptions_without_reading(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/1"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    mcpr_embed_options o = MCPR_EMBED_OPTIONS_INIT;
    o.form = MCPR_EMBED_LINK;
    mcpr_str uris[] = {S("doc://a"), S("tpl://t/7")};
    mcpr_embedding *e = embed(r, uris, 2, &o);
    CHECK(str_eq(mcpr_embedding_block(e, 0),
                 "{\"type\":\"resource_link\",\"uri\":\"doc://a\",\"name\":\"a\",\"title\":\"A\",\"mimeType\":\"text/plain\"}"));
    CHECK(str_eq(mcpr_embedding_block(e, 1), "{\"type\":\"resource_link\",\"uri\":\"tpl://t/7\",\"name\":\"t\"}"));
    CHECK(mcpr_embedding_uri_link_count(e, 0) == 1 && mcpr_embedding_uri_block_count(e, 1) == 1);
    CHECK(atomic_load(&hb.body_reads) == 0);
    CHECK(atomic_load(&hb.resolve_calls) == 2);
    mcpr_embedding_free(e);
    mcpr_resources_free(r);
}

static void an_over_budget_item_becomes_a_link_when_asked(void) {
    host_policy hp = {.disclose = true};
    host_binding hb = {.items = {"item://ok/1", "item://big/2"}, .big_bytes = 100};
    mcpr_resources *r = registry(&hp, &hb, 64);
    mcpr_embed_options o = MCPR_EMBED_OPTIONS_INIT;
    mcpr_str uris[] = {S("doc://b")};
    mcpr_embedding *plain = embed(r, uris, 1, &o);
    CHECK(mcpr_embedding_uri_is_partial(plain, 0));
    CHECK(mcpr_embedding_uri_link_count(plain, 0) == 0);
    o.over_budget_links = true;
    mcpr_embedding *e = embed(r, uris, 1, &o);
    CHECK(!mcpr_embedding_uri_is_partial(e, 0));
    CHECK(mcpr_embedding_uri_link_count(e, 0) == 1);
    CHECK(str_eq(mcpr_embedding_block(e, 1),
                 "{\"type\":\"resource_link\",\"uri\":\"item://big/2\",\"name\":\"item://big/2\"}"));
    mcpr_embedding_free(plain);
    mcpr_embedding_free(e);
    mcpr_resources_free(r);
}

static void embed_checks_every_pointer(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/1"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    mcpr_embedding *e = NULL;
    mcpr_error *err = NULL;
    mcpr_str uris[] = {S("doc://a")};
    CHECK_STATUS(mcpr_embed(NULL, uris, 1, NULL, &e, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_embed(r, uris, 1, NULL, NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_embed(r, NULL, 1, NULL, &e, &err), MCPR_INVALID_ARGUMENT);
    CHECK(err != NULL);
    mcpr_error_free(err);
    mcpr_str bad[] = {S("doc://a"), {NULL, 3}};
    CHECK_STATUS(mcpr_embed(r, bad, 2, NULL, &e, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_embed(r, uris, SIZE_MAX, NULL, &e, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_embed_options o = MCPR_EMBED_OPTIONS_INIT;
    o.form = 7;
    CHECK_STATUS(mcpr_embed(r, uris, 1, &o, &e, NULL), MCPR_INVALID_ARGUMENT);
    o = (mcpr_embed_options)MCPR_EMBED_OPTIONS_INIT;
    o.protocol_revision = S("2024-10-07"); /* no MCP revision */
    CHECK_STATUS(mcpr_embed(r, uris, 1, &o, &e, NULL), MCPR_INVALID_ARGUMENT);
    /* 2024-11-05 is served, but has no resource_link block: the link form
       is the host's mistake there (BEHAVIOUR §16 rule 13) */
    o.protocol_revision = S("2024-11-05");
    o.form = MCPR_EMBED_LINK;
    CHECK_STATUS(mcpr_embed(r, uris, 1, &o, &e, NULL), MCPR_INVALID_ARGUMENT);
    o.protocol_revision = S("2025-03-26");
    CHECK_STATUS(mcpr_embed(r, uris, 1, &o, &e, NULL), MCPR_INVALID_ARGUMENT);
    o = (mcpr_embed_options)MCPR_EMBED_OPTIONS_INIT;
    o.struct_size = 0;
    CHECK_STATUS(mcpr_embed(r, uris, 1, &o, &e, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(e == NULL);
    /* no URI at all is an empty embedding; NULL options are the defaults */
    CHECK_STATUS(mcpr_embed(r, NULL, 0, NULL, &e, NULL), MCPR_OK);
    CHECK(str_eq(mcpr_embedding_blocks_json(e), "[]"));
    CHECK(str_eq(mcpr_embedding_tool_result_json(e), "{\"content\":[],\"resultType\":\"complete\"}"));
    /* out of range and NULL accessors give their empty values */
    CHECK(mcpr_embedding_block(e, 0).len == 0);
    CHECK_STATUS(mcpr_embedding_uri_status(e, 0), MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_embedding_uri_cause(e, 5).len == 0);
    CHECK(!mcpr_embedding_uri_is_partial(e, 9));
    mcpr_embedding_free(e);
    CHECK(mcpr_embedding_blocks_json(NULL).len == 0);
    CHECK(mcpr_embedding_block_count(NULL) == 0);
    CHECK(mcpr_embedding_block(NULL, 0).len == 0);
    CHECK(mcpr_embedding_tool_result_json(NULL).len == 0);
    CHECK(mcpr_embedding_uri_count(NULL) == 0);
    CHECK_STATUS(mcpr_embedding_uri_status(NULL, 0), MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_embedding_uri_block_count(NULL, 0) == 0);
    CHECK(mcpr_embedding_uri_link_count(NULL, 0) == 0);
    CHECK(!mcpr_embedding_uri_is_partial(NULL, 0));
    CHECK(mcpr_embedding_uri_cause(NULL, 0).len == 0);
    mcpr_embedding_free(NULL);
    mcpr_embed_options_init(NULL);
    /* a cancelled embedding fails as a whole */
    mcpr_cancel *c = mcpr_cancel_new();
    mcpr_cancel_cancel(c);
    o = (mcpr_embed_options)MCPR_EMBED_OPTIONS_INIT;
    o.cancel = c;
    CHECK_STATUS(mcpr_embed(r, uris, 1, &o, &e, NULL), MCPR_CANCELED);
    mcpr_cancel_free(c);
    mcpr_resources_free(r);
}

/* mcpr_embed_options as a program built before `form` existed would
 * declare it: the read options' fields only. */
typedef struct {
    size_t struct_size;
    uint64_t timeout_ms;
    const mcpr_cancel *cancel;
    void *request_data;
    const mcpr_executor *executor;
    mcpr_str protocol_revision;
} embed_options_v0;

/* mcpr_request_options before resource_tools. */
typedef struct {
    size_t struct_size;
    mcpr_str protocol_revision;
    mcpr_str scope_key;
    uint32_t page_size;
    uint64_t timeout_ms;
    const mcpr_cancel *cancel;
    void *request_data;
    const mcpr_executor *executor;
} request_options_v0;

static void the_option_structs_grow_by_struct_size(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/1"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    mcpr_embedding *e = NULL;
    mcpr_str uris[] = {S("doc://a")};
    /* An older, smaller struct with set bytes after it: the form is the
     * default (resource blocks), never read from beyond struct_size. */
    struct {
        embed_options_v0 o;
        uint32_t junk[4];
    } older = {{.struct_size = sizeof(embed_options_v0)}, {1, 1, 1, 1}};
    CHECK_STATUS(mcpr_embed(r, uris, 1, (const mcpr_embed_options *)&older, &e, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_embedding_block(e, 0), "\"type\":\"resource\""));
    mcpr_embedding_free(e);
    /* A newer caller's unknown fields must be zero. */
    struct {
        mcpr_embed_options o;
        uint64_t extra;
    } newer = {MCPR_EMBED_OPTIONS_INIT, 0};
    newer.o.struct_size = sizeof newer;
    CHECK_STATUS(mcpr_embed(r, uris, 1, &newer.o, &e, NULL), MCPR_OK);
    mcpr_embedding_free(e);
    newer.extra = 1;
    CHECK_STATUS(mcpr_embed(r, uris, 1, &newer.o, &e, NULL), MCPR_INVALID_ARGUMENT);
    /* The init function gives every default. */
    mcpr_embed_options o;
    memset(&o, 0xff, sizeof o);
    mcpr_embed_options_init(&o);
    CHECK(o.struct_size == sizeof o && o.form == MCPR_EMBED_RESOURCE && !o.over_budget_links && o.cancel == NULL);
    /* Request options from before resource_tools: tools/call stays the host's. */
    request_options_v0 rv = {.struct_size = sizeof rv, .scope_key = S("k")};
    mcpr_response *resp = NULL;
    CHECK_STATUS(mcpr_request(r, S("tools/call"), S("{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"doc://a\"}}"),
                              (const mcpr_request_options *)&rv, &resp, NULL),
                 MCPR_METHOD_NOT_HANDLED);
    mcpr_request_options ro;
    memset(&ro, 0xff, sizeof ro);
    mcpr_request_options_init(&ro);
    CHECK(!ro.resource_tools);
    mcpr_resources_free(r);
}

static mcpr_response *tool_call(const mcpr_resources *r, const char *params, const mcpr_request_options *o) {
    mcpr_response *resp = NULL;
    mcpr_error *err = NULL;
    mcpr_status s = mcpr_resource_tools_call(r, str_of(params), o, &resp, &err);
    CHECK_STATUS(s, MCPR_OK);
    if (s != MCPR_OK) show_error("tool call", err);
    return resp;
}

static void the_resource_tools(void) {
    host_policy hp = {.hidden = {"doc://hidden"}, .deny_discover = {"doc://nodiscover"}};
    host_binding hb = {.items = {"item://ok/1"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.scope_key = S("tenant");

    mcpr_str defs = {0};
    CHECK_STATUS(mcpr_resource_tools_definitions(S("2025-06-18"), &defs, NULL), MCPR_OK);
    CHECK(str_contains(defs, "\"name\":\"list_resources\"") && str_contains(defs, "\"name\":\"read_resource\""));
    CHECK(defs.ptr[0] == '[' && defs.ptr[defs.len - 1] == ']');
    CHECK_STATUS(mcpr_resource_tools_definitions(S("1.0"), &defs, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resource_tools_definitions(S(""), NULL, NULL), MCPR_INVALID_ARGUMENT);

    mcpr_response *resp = tool_call(r, "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"doc://a\"}}", &o);
    CHECK(!mcpr_response_is_error(resp));
    CHECK(str_contains(mcpr_response_json(resp), "{\"content\":[{\"type\":\"resource\",\"resource\":{\"uri\":\"item://ok/1\""));
    CHECK(str_contains(mcpr_response_json(resp), "\"structuredContent\":{\"contents\":[{\"uri\":\"item://ok/1\""));
    mcpr_response_free(resp);

    /* hidden, undiscoverable, unregistered and invalid: the same bytes */
    const char *missing[] = {"doc://hidden", "doc://nodiscover", "doc://unregistered", "not a uri"};
    char *first = NULL;
    for (int i = 0; i < 4; i++) {
        char params[128];
        snprintf(params, sizeof params, "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"%s\"}}", missing[i]);
        resp = tool_call(r, params, &o);
        CHECK(!mcpr_response_is_error(resp));
        CHECK(str_contains(mcpr_response_json(resp), "\"isError\":true"));
        if (!first) first = dup_str(mcpr_response_json(resp));
        else CHECK(str_eq(mcpr_response_json(resp), first));
        mcpr_response_free(resp);
    }
    CHECK(first && strstr(first, "Resource not found"));
    free(first);

    /* list_resources walks resources then templates */
    o.page_size = 3;
    resp = tool_call(r, "{\"name\":\"list_resources\"}", &o);
    CHECK(str_contains(mcpr_response_json(resp), "\"nextCursor\":\"r"));
    mcpr_response_free(resp);
    resp = tool_call(r, "{\"name\":\"list_resources\",\"arguments\":{\"cursor\":\"t\"}}", &o);
    CHECK(str_contains(mcpr_response_json(resp), "\"resourceTemplates\":[{\"uriTemplate\":\"tpl://t/{id}\""));
    mcpr_response_free(resp);
    resp = tool_call(r, "{\"name\":\"list_resources\",\"arguments\":{\"cursor\":\"nope\"}}", &o);
    CHECK(str_contains(mcpr_response_json(resp), "Invalid cursor") && !mcpr_response_is_error(resp));
    CHECK(mcpr_response_cause(resp).len > 0);
    mcpr_response_free(resp);

    /* protocol errors, other tools, missing scope key, NULL pointers */
    resp = tool_call(r, "{\"name\":7}", &o);
    CHECK(mcpr_response_is_error(resp));
    CHECK_STATUS(mcpr_response_status(resp), MCPR_INVALID_REQUEST);
    mcpr_response_free(resp);
    resp = NULL;
    CHECK_STATUS(mcpr_resource_tools_call(r, S("{\"name\":\"get_weather\"}"), &o, &resp, NULL), MCPR_METHOD_NOT_HANDLED);
    CHECK_STATUS(mcpr_resource_tools_call(r, S("{\"name\":\"list_resources\"}"), NULL, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resource_tools_call(NULL, S("{}"), &o, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resource_tools_call(r, S("{}"), &o, NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resource_tools_call(r, (mcpr_str){NULL, 2}, &o, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(resp == NULL);

    /* through mcpr_request: only when asked */
    const char *call = "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"doc://a\"}}";
    CHECK_STATUS(mcpr_request(r, S("tools/call"), str_of(call), &o, &resp, NULL), MCPR_METHOD_NOT_HANDLED);
    o.resource_tools = true;
    CHECK_STATUS(mcpr_request(r, S("tools/call"), str_of(call), &o, &resp, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_response_json(resp), "\"type\":\"resource\""));
    mcpr_response_free(resp);
    CHECK_STATUS(mcpr_request(r, S("tools/list"), S(""), &o, &resp, NULL), MCPR_METHOD_NOT_HANDLED);
    mcpr_resources_free(r);
}

/* Tool results are results: the host's result _meta is the _meta of the
 * resource tools' results (their execution errors alike for every reason)
 * and of an embedding's whole tool result, never of a block; before
 * 2025-06-18 no structuredContent (BEHAVIOUR §16 rules 13 and 14). */
static void tool_results_carry_the_host_result_meta_and_the_revisions_shape(void) {
    host_policy hp = {.hidden = {"doc://hidden"}};
    host_binding hb = {.items = {"item://ok/1"}};
    mcpr_resources *r = registry(&hp, &hb, 0);
    mcpr_result_meta *meta = NULL;
    CHECK_STATUS(mcpr_result_meta_new(S("{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"c\",\"version\":\"1\"}}"),
                                      &meta, NULL),
                 MCPR_OK);
    const char *want = "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"c\",\"version\":\"1\"}}";

    mcpr_embed_options eo = MCPR_EMBED_OPTIONS_INIT;
    eo.result_meta = meta;
    mcpr_str uris[] = {S("doc://a")};
    mcpr_embedding *e = embed(r, uris, 1, &eo);
    CHECK(str_contains(mcpr_embedding_tool_result_json(e), want));
    CHECK(!str_contains(mcpr_embedding_blocks_json(e), "serverInfo"));
    mcpr_embedding_free(e);

    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.scope_key = S("tenant");
    o.result_meta = meta;
    mcpr_response *resp = tool_call(r, "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"doc://a\"}}", &o);
    CHECK(str_contains(mcpr_response_json(resp), want));
    mcpr_response_free(resp);
    char *hidden = NULL;
    const char *missing[] = {"doc://hidden", "doc://unregistered"};
    for (int i = 0; i < 2; i++) {
        char params[128];
        snprintf(params, sizeof params, "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"%s\"}}", missing[i]);
        resp = tool_call(r, params, &o);
        CHECK(str_contains(mcpr_response_json(resp), want));
        if (!hidden) hidden = dup_str(mcpr_response_json(resp));
        else CHECK(str_eq(mcpr_response_json(resp), hidden));
        mcpr_response_free(resp);
    }
    free(hidden);

    o.protocol_revision = S("2025-03-26");
    resp = tool_call(r, "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"doc://a\"}}", &o);
    CHECK(!str_contains(mcpr_response_json(resp), "structuredContent"));
    CHECK(str_contains(mcpr_response_json(resp), "\"type\":\"resource\""));
    mcpr_response_free(resp);
    mcpr_str defs = {0};
    CHECK_STATUS(mcpr_resource_tools_definitions(S("2024-11-05"), &defs, NULL), MCPR_OK);
    CHECK(!str_contains(defs, "outputSchema") && !str_contains(defs, "annotations") && !str_contains(defs, "title"));
    mcpr_result_meta_free(meta);
    mcpr_resources_free(r);
}

int main(void) {
    embedding_returns_exactly_what_a_read_would();
    nothing_for_hidden_undiscoverable_unregistered_or_invalid_targets();
    links_come_from_registered_descriptions_without_reading();
    an_over_budget_item_becomes_a_link_when_asked();
    embed_checks_every_pointer();
    the_option_structs_grow_by_struct_size();
    the_resource_tools();
    tool_results_carry_the_host_result_meta_and_the_revisions_shape();
    return harness_finish("test_tools");
}
