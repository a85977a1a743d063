/*
 * example.c - a tour of the mcp_resources C API, top to bottom.
 *
 * It registers an exact resource (config://app/settings) and a template
 * (project://acme/{id}/report) that resolves to a bundle of three items, with a
 * policy and cache hints; then serves MCP requests the way a server does,
 * one call per request (mcpr_request: method name and params text in, the
 * JSON-RPC result or error out): a complete bundle, a partial one, a denial,
 * a bad identifier, malformed params, resources/list page by page with a
 * cursor, resources/templates/list, and the same read for an older protocol
 * revision. Then resources in tool results: a host tool answering with
 * embedded resources and resource links (mcpr_embed), and the library's
 * read_resource and list_resources tools for clients that only call tools.
 * Then an input-required read (MCP 2026-07-28): the policy asks for the
 * user's consent before config://app/secrets is read, and the client's retry
 * brings the answer. Last, the separate mcpr_read for hosts that parse
 * params themselves.
 *
 * Build and run: bash scripts/c-example.sh
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mcp_resources.h"

/* mcpr_str is (pointer, length) and not NUL-terminated: these helpers make
 * one from a C string and print one. */
static mcpr_str str(const char *s) {
    mcpr_str out = {s, strlen(s)};
    return out;
}
#define PRINT_STR(label, s) printf("%s%.*s\n", (label), (int)(s).len, (s).ptr)

/* ------------------------------------------------------------------ policy
 * The policy decides discovery, visibility and read permission. Its
 * callbacks get `user_data` first; they may run concurrently on any thread,
 * so anything they share must be thread-safe (here: read-only). */
typedef struct {
    const char *tenant; /* who is asking (a real host would use request_data) */
} policy_state;

static mcpr_cb_result policy_discover(void *ud, const mcpr_call *call, const mcpr_definition *def) {
    (void)ud;
    (void)call;
    (void)def;
    return MCPR_CB_OK; /* every registered resource may be discovered */
}

static mcpr_cb_result policy_visibility(void *ud, const mcpr_call *call, const mcpr_target *t,
                                        mcpr_visibility *out) {
    (void)ud;
    (void)call;
    (void)t;
    out->visible = true;            /* hidden targets vanish silently */
    out->disclose_issue_uri = true; /* issues may name this URI */
    return MCPR_CB_OK;
}

#define CONSENT_REQUEST                                                                              \
    "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Show the secrets?\"," \
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"confirm\":{\"type\":\"boolean\"}}," \
    "\"required\":[\"confirm\"]}}}"

static mcpr_cb_result policy_read(void *ud, const mcpr_call *call, const mcpr_target *t) {
    policy_state *p = ud;
    mcpr_str uri = mcpr_target_uri(t);
    /* config://app/secrets needs the user's consent first (MCP 2026-07-28
     * input-required reads): the first check asks, the client's retry
     * carries the answer, which every callback of that read can see. */
    if (uri.len == 20 && memcmp(uri.ptr, "config://app/secrets", 20) == 0) {
        mcpr_str confirm = mcpr_input_response_content(call, str("consent"), str("confirm"));
        if (mcpr_input_response_action(call, str("consent")) == MCPR_INPUT_ACCEPT && confirm.len == 4 &&
            memcmp(confirm.ptr, "true", 4) == 0)
            return MCPR_CB_OK;
        if (mcpr_input_is_retry(call) || mcpr_call_phase(call) != MCPR_PHASE_FIRST_CHECK)
            return MCPR_CB_UNAVAILABLE; /* declined: a denial, like "not found" */
        if (mcpr_input_add_request(call, str("consent"), str(CONSENT_REQUEST), NULL) != MCPR_OK)
            return MCPR_CB_FAILED;
        return MCPR_CB_INPUT_REQUIRED;
    }
    /* Only the "acme" tenant may read project 99 at all. */
    if (uri.len >= 18 && memcmp(uri.ptr, "project://acme/99/", 18) == 0 && strcmp(p->tenant, "acme") != 0)
        return MCPR_CB_UNAVAILABLE; /* a denial: looks exactly like "not found" */
    return MCPR_CB_OK;
}

/* ------------------------------------------------------------------ config://app/settings
 * An exact resource: mcpr_resolve_single plans the URI as its only item;
 * the reader copies its body into the payload builder. */
static mcpr_cb_result settings_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                    mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    (void)t;
    const char *body = "{\"theme\":\"dark\",\"language\":\"en\"}";
    return mcpr_payload_set_text(out, str("application/json"), str(body), NULL) == MCPR_OK
               ? MCPR_CB_OK
               : MCPR_CB_FAILED;
}

/* ------------------------------------------------------------------ project://acme/{id}/report
 * A template: resolve turns the match into a plan naming the requested
 * bundle and its ordered items; read serves each item. */
static mcpr_cb_result report_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                     mcpr_plan_builder *plan) {
    (void)ud;
    (void)call;
    mcpr_str id = mcpr_match_capture_value(m, 0); /* decoded once; not a path */
    const char *parts[] = {"summary", "chart", "raw"};
    char uri[256];
    if (mcpr_plan_set_requested(plan, mcpr_match_uri(m), str(""), str(""), NULL) != MCPR_OK)
        return MCPR_CB_FAILED;
    for (int i = 0; i < 3; i++) {
        snprintf(uri, sizeof uri, "project://acme/%.*s/%s", (int)id.len, id.ptr, parts[i]);
        /* the private authorization JSON reaches policy and storage only */
        if (mcpr_plan_add_item(plan, str(uri), str(""), str("{\"table\":\"projects\"}"), NULL) != MCPR_OK)
            return MCPR_CB_FAILED;
    }
    return MCPR_CB_OK;
}

static mcpr_cb_result report_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                  mcpr_payload_builder *out) {
    (void)ud;
    char uri[256];
    mcpr_str u = mcpr_target_uri(t);
    snprintf(uri, sizeof uri, "%.*s", (int)u.len, u.ptr);
    if (strstr(uri, "/summary")) {
        char text[300];
        snprintf(text, sizeof text, "Summary of %s: all green.", uri);
        return mcpr_payload_set_text(out, str("text/markdown"), str(text), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                           : MCPR_CB_FAILED;
    }
    if (strstr(uri, "/chart")) {
        static const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        mcpr_payload_set_blob(out, str("image/png"), png, sizeof png, NULL);
        return MCPR_CB_OK;
    }
    /* "raw" lives in a storage that is down for project 13: a failure with
     * a private cause (for the host's logs; clients only see a fixed text). */
    if (strncmp(uri, "project://acme/13/", 18) == 0) {
        mcpr_call_set_cause(call, str("raw storage offline (shard 4)"));
        return MCPR_CB_FAILED;
    }
    return mcpr_payload_set_text(out, str("text/csv"), str("a,b\n1,2\n"), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                          : MCPR_CB_FAILED;
}

/* ------------------------------------------------------------------ serving
 * What a server does with each JSON-RPC request it receives: hand the
 * method name and the raw params text to mcpr_request, and send back the
 * response it makes under "result" or "error" with the request's id. */
static int next_id = 1;

static void serve(const mcpr_resources *r, const char *method, const char *params, const char *revision) {
    mcpr_request_options opt = MCPR_REQUEST_OPTIONS_INIT;
    opt.protocol_revision = str(revision); /* negotiated with the client ("" = newest) */
    opt.scope_key = str("example-tenant"); /* the caller's authorization context */
    opt.page_size = 1;                     /* list pages of one, to show cursors */
    opt.timeout_ms = 5000;                 /* the caller's deadline */
    int id = next_id++;
    printf("\n--> {\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}\n", id, method, params);
    mcpr_response *resp = NULL;
    mcpr_error *err = NULL;
    mcpr_status s = mcpr_request(r, str(method), str(params), &opt, &resp, &err);
    if (s == MCPR_METHOD_NOT_HANDLED) {
        /* not a resources method: route it elsewhere (here: method not found) */
        printf("<-- {\"jsonrpc\":\"2.0\",\"id\":%d,\"error\":%.*s}\n", id,
               (int)mcpr_error_jsonrpc_json(err).len, mcpr_error_jsonrpc_json(err).ptr);
        mcpr_error_free(err);
        return;
    }
    if (s != MCPR_OK) { /* a host bug (bad options) or a caught panic */
        PRINT_STR("host error: ", mcpr_error_message(err));
        mcpr_error_free(err);
        return;
    }
    mcpr_str json = mcpr_response_json(resp);
    bool is_error = mcpr_response_is_error(resp);
    printf("<-- {\"jsonrpc\":\"2.0\",\"id\":%d,\"%s\":%.*s}\n", id, is_error ? "error" : "result", (int)json.len,
           json.ptr);
    mcpr_str cause = mcpr_response_cause(resp); /* private: logs only */
    if (cause.len > 0) PRINT_STR("    (log) cause: ", cause);
    mcpr_response_free(resp);
}

/* Follows nextCursor through every page of a list method. */
static void serve_all_pages(const mcpr_resources *r, const char *method) {
    char params[4200] = "{}";
    for (;;) {
        mcpr_request_options opt = MCPR_REQUEST_OPTIONS_INIT;
        opt.scope_key = str("example-tenant");
        opt.page_size = 1;
        mcpr_response *resp = NULL;
        printf("\n--> %s %s\n", method, params);
        if (mcpr_request(r, str(method), str(params), &opt, &resp, NULL) != MCPR_OK) return;
        mcpr_str json = mcpr_response_json(resp);
        PRINT_STR("<-- ", json);
        /* a real host parses the result; cursors are opaque base64url text */
        char copy[8192];
        snprintf(copy, sizeof copy, "%.*s", (int)json.len, json.ptr);
        const char *c = mcpr_response_is_error(resp) ? NULL : strstr(copy, "\"nextCursor\":\"");
        mcpr_response_free(resp);
        if (!c) break; /* last page */
        c += strlen("\"nextCursor\":\"");
        snprintf(params, sizeof params, "{\"cursor\":\"%.*s\"}", (int)(strchr(c, '"') - c), c);
    }
}

/* The separate read, for hosts that parse params themselves. */
static void read_and_print(const mcpr_resources *r, const char *uri) {
    mcpr_bundle *bundle = NULL;
    mcpr_error *err = NULL;
    mcpr_read_options opt = MCPR_READ_OPTIONS_INIT;
    opt.timeout_ms = 5000;
    opt.protocol_revision = str("2025-11-25");
    printf("\n== mcpr_read %s (2025-11-25)\n", uri);
    if (mcpr_read(r, str(uri), &opt, &bundle, &err) != MCPR_OK) {
        /* the complete JSON-RPC error object for the options' revision */
        PRINT_STR("error: ", mcpr_error_jsonrpc_json(err));
        mcpr_error_free(err);
        return;
    }
    PRINT_STR("result: ", mcpr_bundle_json(bundle));
    mcpr_bundle_free(bundle);
}

/* ------------------------------------------------------------------ tool results
 * A host tool ("project_reports") answers with the reports of the projects
 * it is asked about: mcpr_embed reads each through the same pipeline and
 * policy as resources/read, for the same caller, and gives nothing for a
 * URI the caller may not read (project 99, denied: the same nothing as an
 * unregistered URI). The host sends the whole CallToolResult, or places
 * the blocks among its own content. */
static void tool_results_demo(const mcpr_resources *r) {
    mcpr_str uris[] = {str("project://acme/7/report"), str("project://acme/99/report"),
                       str("config://app/settings")};
    mcpr_embed_options eo = MCPR_EMBED_OPTIONS_INIT;
    eo.timeout_ms = 5000; /* one deadline for every URI */
    for (int links = 0; links < 2; links++) {
        eo.form = links ? MCPR_EMBED_LINK : MCPR_EMBED_RESOURCE;
        mcpr_embedding *e = NULL;
        mcpr_error *err = NULL;
        printf("\n== tools/call project_reports (%s)\n", links ? "resource links" : "embedded resources");
        if (mcpr_embed(r, uris, 3, &eo, &e, &err) != MCPR_OK) {
            PRINT_STR("embed failed: ", mcpr_error_message(err));
            mcpr_error_free(err);
            return;
        }
        PRINT_STR("<-- result: ", mcpr_embedding_tool_result_json(e));
        for (size_t i = 0; i < mcpr_embedding_uri_count(e); i++) {
            /* for the host's logs only: the client cannot tell these apart */
            if (mcpr_embedding_uri_status(e, i) != MCPR_OK)
                printf("    (log) URI %zu gave nothing: %s\n", i,
                       mcpr_status_name((int32_t)mcpr_embedding_uri_status(e, i)));
        }
        mcpr_embedding_free(e);
    }

    /* The resource tools: their definitions go into the host's tools/list;
     * tools/call for them goes to the library (other tools stay the host's). */
    mcpr_str defs = {0};
    if (mcpr_resource_tools_definitions(str(""), &defs, NULL) == MCPR_OK) PRINT_STR("\ntools/list adds: ", defs);
    mcpr_request_options opt = MCPR_REQUEST_OPTIONS_INIT;
    opt.scope_key = str("example-tenant");
    opt.resource_tools = true;
    const char *calls[] = {
        "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"config://app/settings\"}}",
        "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"project://acme/99/report\"}}",
        "{\"name\":\"list_resources\",\"arguments\":{}}",
        "{\"name\":\"project_reports\",\"arguments\":{}}",
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        printf("\n--> tools/call %s\n", calls[i]);
        mcpr_response *resp = NULL;
        mcpr_status st = mcpr_request(r, str("tools/call"), str(calls[i]), &opt, &resp, NULL);
        if (st == MCPR_METHOD_NOT_HANDLED) {
            printf("    (the host's own tool: call it)\n");
            continue;
        }
        if (st != MCPR_OK) continue;
        PRINT_STR("<-- result: ", mcpr_response_json(resp));
        mcpr_response_free(resp);
    }
}

/* ------------------------------------------------------------------ input-required reads
 * A read of config://app/secrets answers an InputRequiredResult first: its
 * inputRequests go to the client (here: an elicitation of the user's
 * consent), its requestState is sealed by the library. The client retries
 * with its inputResponses and that requestState, which mcpr_request reads
 * from the params. A client of an older revision cannot be asked: the read
 * fails with MCPR_INPUT_REQUIRED and the error the host chose. */
static void input_required_demo(const mcpr_resources *r) {
    const char *meta = "\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}}";
    char params[4096];
    snprintf(params, sizeof params, "{\"uri\":\"config://app/secrets\",%s}", meta);
    printf("\n== an input-required read\n");
    mcpr_request_options opt = MCPR_REQUEST_OPTIONS_INIT;
    opt.scope_key = str("example-tenant"); /* the requestState is bound to it */
    mcpr_response *resp = NULL;
    mcpr_error *err = NULL;
    if (mcpr_request(r, str("resources/read"), str(params), &opt, &resp, &err) != MCPR_OK) {
        PRINT_STR("host error: ", mcpr_error_message(err));
        mcpr_error_free(err);
        return;
    }
    mcpr_str json = mcpr_response_json(resp);
    PRINT_STR(mcpr_response_is_input_required(resp) ? "<-- input required: " : "<-- ", json);
    /* The client answers the elicitation and retries; a real client echoes
     * the requestState it got byte for byte (here: found in the JSON). */
    const char *at = strstr(json.ptr, "\"requestState\":\"");
    size_t n = at ? strcspn(at + 16, "\"") : 0;
    snprintf(params, sizeof params,
             "{\"uri\":\"config://app/secrets\",\"requestState\":\"%.*s\",\"inputResponses\":{\"consent\":"
             "{\"action\":\"accept\",\"content\":{\"confirm\":true}}},%s}",
             (int)n, at ? at + 16 : "", meta);
    mcpr_response_free(resp);
    if (mcpr_request(r, str("resources/read"), str(params), &opt, &resp, &err) == MCPR_OK) {
        PRINT_STR("<-- after consent: ", mcpr_response_json(resp)); /* ttlMs 0, private */
        mcpr_response_free(resp);
    }
    /* 2025-11-25 has no input-required result. */
    opt.protocol_revision = str("2025-11-25");
    if (mcpr_request(r, str("resources/read"), str("{\"uri\":\"config://app/secrets\"}"), &opt, &resp, &err) ==
        MCPR_OK) {
        PRINT_STR("<-- 2025-11-25: ", mcpr_response_json(resp));
        mcpr_response_free(resp);
    }
}

/* ------------------------------------------------------------------ configuration reload
 * The host keeps its current registry in one pointer guarded by its own
 * lock. A request retains the registry under that lock, calls, and frees
 * its reference; a reload builds the new registry, swaps the pointer under
 * the lock and frees the old reference. Requests still running on the old
 * registry finish on it; its tables' release callbacks run once the last
 * of them is done. (Each mcpr_read/mcpr_list also holds its own reference
 * while it runs, but the pointer it is given must be a live reference when
 * it is called: hence the retain under the lock, never a bare read of
 * `current`.) */
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static mcpr_resources *current;

static mcpr_resources *acquire_current(void) {
    pthread_mutex_lock(&current_lock);
    mcpr_resources *r = mcpr_resources_retain(current);
    pthread_mutex_unlock(&current_lock);
    return r; /* the request's own reference: free it when done */
}

static void install(mcpr_resources *next) {
    pthread_mutex_lock(&current_lock);
    mcpr_resources *old = current;
    current = next;
    pthread_mutex_unlock(&current_lock);
    mcpr_resources_free(old); /* requests still using it hold their own */
}

/* One generation of the configuration: config://app/flags serves its text. */
static mcpr_cb_result flags_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                 mcpr_payload_builder *out) {
    (void)call;
    (void)t;
    return mcpr_payload_set_text(out, str("application/json"), str(ud), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                        : MCPR_CB_FAILED;
}

static void flags_release(void *ud) { printf("released the registry serving %s\n", (const char *)ud); }

static mcpr_resources *build_generation(const mcpr_policy_callbacks *policy, const char *flags) {
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = (void *)flags,
        .resolve = mcpr_resolve_single,
        .read = flags_read,
        .release = flags_release,
    };
    mcpr_builder *b = mcpr_builder_new();
    mcpr_resources *r = NULL;
    if (mcpr_builder_set_policy(b, policy, NULL) != MCPR_OK ||
        mcpr_builder_add(b, str("{\"uri\":\"config://app/flags\",\"name\":\"flags\"}"), &cb, NULL) != MCPR_OK) {
        mcpr_builder_free(b); /* not built: discard it */
        return NULL;
    }
    if (mcpr_builder_build(b, &r, NULL) != MCPR_OK) r = NULL; /* the build consumed b, built or not */
    return r;
}

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int served[2]; /* reads answered by gen-1 and by gen-2 */
    bool finished;
} request_stats;

/* A request thread: reads config://app/flags through the current registry
 * until gen-2 has answered three times. */
static void *request_thread(void *arg) {
    request_stats *st = arg;
    for (;;) {
        mcpr_resources *r = acquire_current();
        mcpr_bundle *bundle = NULL;
        int gen = -1;
        if (mcpr_read(r, str("config://app/flags"), NULL, &bundle, NULL) == MCPR_OK) {
            char json[256];
            mcpr_str j = mcpr_bundle_json(bundle);
            snprintf(json, sizeof json, "%.*s", (int)j.len, j.ptr);
            gen = strstr(json, "gen-2") ? 1 : 0;
            mcpr_bundle_free(bundle);
        }
        mcpr_resources_free(r);
        pthread_mutex_lock(&st->mu);
        if (gen >= 0) st->served[gen]++;
        bool done = gen < 0 || st->served[1] >= 3;
        st->finished = done;
        pthread_cond_signal(&st->cv);
        pthread_mutex_unlock(&st->mu);
        if (done) return NULL;
    }
}

static int reload_demo(const mcpr_policy_callbacks *policy) {
    printf("\n== configuration reload\n");
    current = build_generation(policy, "{\"generation\":\"gen-1\"}");
    mcpr_resources *next = build_generation(policy, "{\"generation\":\"gen-2\"}");
    if (!current || !next) {
        printf("reload demo: build failed\n");
        install(NULL);
        mcpr_resources_free(next);
        return 1;
    }
    request_stats st = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0, 0}, false};
    pthread_t requests;
    if (pthread_create(&requests, NULL, request_thread, &st) != 0) {
        install(NULL);
        mcpr_resources_free(next);
        return 1;
    }
    /* let gen-1 answer a few requests, then reload while they keep coming */
    pthread_mutex_lock(&st.mu);
    while (st.served[0] < 3 && !st.finished) pthread_cond_wait(&st.cv, &st.mu);
    pthread_mutex_unlock(&st.mu);
    install(next);
    pthread_join(requests, NULL);
    printf("reads answered by gen-1: %d, by gen-2: %d\n", st.served[0], st.served[1]);
    install(NULL); /* shutting down: the last reference goes */
    return st.served[1] == 3 ? 0 : 1;
}

int main(void) {
    printf("mcp_resources %s\n", mcpr_version());

    /* 1. Build the registry. Cache hints: list pages and reads may be
     *    considered fresh for a minute; the policy depends on who asks, so
     *    results stay "private". The settings are the same for everyone and
     *    fresh for five minutes. */
    policy_state policy = {"example-tenant"};
    mcpr_policy_callbacks policy_cb = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = &policy,
        .discover = policy_discover,
        .visibility = policy_visibility,
        .read = policy_read,
    };
    mcpr_binding_callbacks settings_cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = mcpr_resolve_single,
        .read = settings_read,
    };
    mcpr_binding_callbacks report_cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = report_resolve,
        .read = report_read,
    };
    mcpr_cache_hints settings_hints = {sizeof settings_hints, 300000, true};

    mcpr_builder *b = mcpr_builder_new();
    mcpr_error *err = NULL;
    if (mcpr_builder_set_policy(b, &policy_cb, &err) != MCPR_OK ||
        mcpr_builder_set_cache_hints(b, 60000, false, &err) != MCPR_OK ||
        mcpr_builder_add_with_hints(b, str("{\"uri\":\"config://app/settings\",\"name\":\"settings\","
                                           "\"mimeType\":\"application/json\"}"),
                                    &settings_cb, &settings_hints, &err) != MCPR_OK ||
        mcpr_builder_add(b, str("{\"uriTemplate\":\"project://acme/{id}/report\",\"name\":\"report\","
                                "\"description\":\"Summary, chart and raw data of a project\"}"),
                         &report_cb, &err) != MCPR_OK ||
        mcpr_builder_add(b, str("{\"uri\":\"config://app/limits\",\"name\":\"limits\"}"), &settings_cb,
                         &err) != MCPR_OK ||
        mcpr_builder_add(b, str("{\"uri\":\"config://app/secrets\",\"name\":\"secrets\"}"), &settings_cb,
                         &err) != MCPR_OK ||
        mcpr_builder_set_limit(b, MCPR_LIMIT_ITEM_TIMEOUT_MS, 2000, &err) != MCPR_OK) {
        PRINT_STR("setup failed: ", mcpr_error_message(err));
        mcpr_error_free(err);
        mcpr_builder_free(b);
        return 1;
    }
    mcpr_resources *r = NULL;
    mcpr_status s = mcpr_builder_build(b, &r, &err); /* consumes b, built or not: no mcpr_builder_free */
    if (s != MCPR_OK) {
        PRINT_STR("build failed: ", mcpr_error_message(err));
        mcpr_error_free(err);
        return 1;
    }

    /* 2. Serve requests (protocol 2026-07-28 unless said otherwise). */
    serve(r, "resources/read", "{\"uri\":\"config://app/settings\"}", "");
    serve(r, "resources/read", "{\"uri\":\"project://acme/7/report\"}", "");
    serve(r, "resources/read", "{\"uri\":\"project://acme/13/report\"}", ""); /* partial */
    serve(r, "resources/read", "{\"uri\":\"project://acme/99/report\"}", ""); /* denied = not found */
    serve(r, "resources/read", "{\"uri\":\"project://acme/99/report\"}", "2025-11-25"); /* -32002 */
    serve(r, "resources/read", "{\"uri\":\"project://acme/a%2Fb/report\"}", ""); /* encoded slash */
    serve(r, "resources/read", "{\"uri\":42}", "");                             /* malformed params */
    serve(r, "tools/list", "{}", "");                                           /* not ours */
    /* a 2026-07-28 client names its revision in every request */
    serve(r, "resources/read",
          "{\"uri\":\"config://app/settings\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2025-06-18\"}}",
          "");
    serve_all_pages(r, "resources/list");
    serve_all_pages(r, "resources/templates/list");

    /* 3. Resources in tool results. */
    tool_results_demo(r);

    /* 4. A read that asks for input first. */
    input_required_demo(r);

    /* 5. The separate functions remain for hosts that parse params. */
    read_and_print(r, "config://app/settings");
    read_and_print(r, "config://app/missing");

    /* 6. Release the registry (calls in flight elsewhere keep their own
     *    references, taken with mcpr_resources_retain). */
    mcpr_resources_free(r);

    /* 7. Swap registries while requests run. */
    return reload_demo(&policy_cb);
}
