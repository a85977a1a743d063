/*
 * audit_log.c - an audit log built on the observer hook (docs/C-API.md,
 * "Observability"; docs/BEHAVIOUR.md §19).
 *
 * The registry serves three documents to two callers: doc://public (anyone
 * reads it), doc://payroll (only "alice" may read it; others are denied)
 * and doc://secret-merger (hidden from everyone but "alice"). The observer
 * asks for decision events and writes one JSON line per event to the audit
 * file: the caller's identity (from the call's request data), then the
 * library's public JSON line of the event. Private events (anything about
 * what the caller may not see) go only to the host's private log, with
 * their private members; the audit file never names a hidden URI, and a
 * hidden document looks exactly like one that does not exist.
 *
 * Usage: audit_log AUDIT_FILE [PRIVATE_FILE]   (prints both files after the
 * calls; exits 1 if the audit file names the hidden document)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp_resources.h"

static mcpr_str str(const char *s) {
    mcpr_str out = {s, strlen(s)};
    return out;
}

/* ------------------------------------------------------------------ caller
 * What the host passes as each call's request data: who is asking. */
typedef struct {
    const char *name;
} caller;

static const char *caller_of(const mcpr_call *call) {
    const caller *c = mcpr_call_request_data(call);
    return c ? c->name : "";
}

static int is(const mcpr_target *t, const char *uri) {
    mcpr_str u = mcpr_target_uri(t);
    return u.len == strlen(uri) && memcmp(u.ptr, uri, u.len) == 0;
}

/* ------------------------------------------------------------------ policy */
static mcpr_cb_result discover(void *ud, const mcpr_call *call, const mcpr_definition *def) {
    (void)ud, (void)call, (void)def;
    return MCPR_CB_OK;
}

static mcpr_cb_result visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud;
    int alice = strcmp(caller_of(call), "alice") == 0;
    out->visible = alice || !is(t, "doc://secret-merger");
    out->disclose_issue_uri = is(t, "doc://public"); /* only it may be named in plain */
    return MCPR_CB_OK;
}

static mcpr_cb_result permission(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)ud;
    if (is(t, "doc://payroll") && strcmp(caller_of(call), "alice") != 0) return MCPR_CB_UNAVAILABLE;
    return MCPR_CB_OK;
}

static mcpr_cb_result read_body(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud, (void)call;
    mcpr_str u = mcpr_target_uri(t);
    char text[128];
    snprintf(text, sizeof text, "contents of %.*s", (int)u.len, u.ptr);
    return mcpr_payload_set_text(out, str("text/plain"), str(text), NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

/* ------------------------------------------------------------------ the log
 * The observer runs on the calling thread or on an executor's worker,
 * concurrently: the files are written under a lock, and nothing blocks for
 * long. The event and its strings are valid only during the callback. */
typedef struct {
    pthread_mutex_t lock;
    FILE *audit;
    FILE *private_log;
} audit_log;

static void write_line(FILE *f, const mcpr_event *e, bool with_private) {
    const caller *c = e->request_data;
    mcpr_str line = mcpr_event_json(e, with_private);
    fprintf(f, "{\"caller\":\"%s\",\"event\":%.*s}\n", c ? c->name : "", (int)line.len, line.ptr);
}

static void on_event(void *ud, const mcpr_event *e) {
    audit_log *log = ud;
    pthread_mutex_lock(&log->lock);
    if (!e->is_private) write_line(log->audit, e, false);
    if (log->private_log) write_line(log->private_log, e, true);
    pthread_mutex_unlock(&log->lock);
}

/* Runs exactly once, after the last event (the registry's last reference). */
static void on_release(void *ud) {
    audit_log *log = ud;
    fclose(log->audit);
    if (log->private_log) fclose(log->private_log);
    pthread_mutex_destroy(&log->lock);
}

static int add(mcpr_builder *b, const char *json, const mcpr_binding_callbacks *binding) {
    mcpr_error *err = NULL;
    if (mcpr_builder_add(b, str(json), binding, &err) != MCPR_OK) {
        mcpr_str m = mcpr_error_message(err);
        fprintf(stderr, "add: %.*s\n", (int)m.len, m.ptr);
        mcpr_error_free(err);
        return -1;
    }
    return 0;
}

static void read_as(const mcpr_resources *r, caller *who, const char *uri) {
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.request_data = who;
    mcpr_bundle *bundle = NULL;
    mcpr_error *err = NULL;
    mcpr_status s = mcpr_read(r, str(uri), &o, &bundle, &err);
    printf("%-6s reads %-20s -> %s\n", who->name, uri, mcpr_status_name((int32_t)s));
    mcpr_bundle_free(bundle);
    mcpr_error_free(err);
}

static int dump(const char *label, const char *path, const char *must_not_contain) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int found = 0;
    char line[4096];
    printf("== %s (%s)\n", label, path);
    while (fgets(line, sizeof line, f)) {
        fputs(line, stdout);
        if (must_not_contain && strstr(line, must_not_contain)) found = 1;
    }
    fclose(f);
    return found;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s AUDIT_FILE [PRIVATE_FILE]\n", argv[0]);
        return 2;
    }
    static audit_log log;
    pthread_mutex_init(&log.lock, NULL);
    log.audit = fopen(argv[1], "w");
    log.private_log = argc > 2 ? fopen(argv[2], "w") : NULL;
    if (!log.audit || (argc > 2 && !log.private_log)) {
        perror("fopen");
        return 1;
    }

    mcpr_builder *b = mcpr_builder_new();
    mcpr_policy_callbacks policy = MCPR_POLICY_CALLBACKS_INIT;
    policy.discover = discover;
    policy.visibility = visibility;
    policy.read = permission;
    mcpr_binding_callbacks binding = MCPR_BINDING_CALLBACKS_INIT;
    binding.resolve = mcpr_resolve_single;
    binding.read = read_body;
    mcpr_observer_callbacks observer = MCPR_OBSERVER_CALLBACKS_INIT;
    observer.user_data = &log;
    observer.on_event = on_event;
    observer.release = on_release;
    observer.flags = MCPR_OBSERVE_DECISIONS;
    static const uint8_t key[32] = "an event key shared by replicas";
    mcpr_error *err = NULL;
    if (!b || mcpr_builder_set_policy(b, &policy, &err) != MCPR_OK ||
        mcpr_builder_set_observer(b, &observer, &err) != MCPR_OK ||
        mcpr_builder_set_event_key(b, key, sizeof key, &err) != MCPR_OK ||
        add(b, "{\"uri\":\"doc://public\",\"name\":\"public\"}", &binding) != 0 ||
        add(b, "{\"uri\":\"doc://payroll\",\"name\":\"payroll\"}", &binding) != 0 ||
        add(b, "{\"uri\":\"doc://secret-merger\",\"name\":\"merger\"}", &binding) != 0) {
        fprintf(stderr, "building the registry failed\n");
        mcpr_error_free(err);
        mcpr_builder_free(b);
        return 1;
    }
    mcpr_resources *r = NULL;
    if (mcpr_builder_build(b, &r, &err) != MCPR_OK) {
        fprintf(stderr, "build failed\n");
        mcpr_error_free(err);
        return 1;
    }

    caller alice = {"alice"}, bob = {"bob"};
    read_as(r, &bob, "doc://public");
    read_as(r, &bob, "doc://payroll");
    read_as(r, &bob, "doc://secret-merger"); /* hidden: looks like the next one */
    read_as(r, &bob, "doc://no-such-doc");
    read_as(r, &alice, "doc://payroll");
    read_as(r, &alice, "doc://secret-merger");

    /* A host finds the events of a URI it knows by its keyed hash. */
    uint8_t hash[MCPR_EVENT_HASH_BYTES];
    if (mcpr_resources_event_hash(r, str("doc://payroll"), hash, NULL) == MCPR_OK) {
        printf("doc://payroll's events carry uriHash ");
        for (size_t i = 0; i < sizeof hash; i++) printf("%02x", hash[i]);
        printf("\n");
    }
    /* Metrics need no observer. */
    mcpr_call_metrics m = {.struct_size = sizeof m};
    if (mcpr_resources_get_metrics(r, str("resources/read"), MCPR_UNAVAILABLE, &m, NULL) == MCPR_OK)
        printf("reads answered not found: %llu\n", (unsigned long long)m.calls);

    mcpr_resources_free(r); /* the last reference: the observer's release closes the files */
    int leaked = dump("audit log (public events only)", argv[1], "secret-merger");
    if (argc > 2) dump("host-only log (private members and events)", argv[2], NULL);
    if (leaked) {
        fprintf(stderr, "the audit log names the hidden document\n");
        return 1;
    }
    return 0;
}
