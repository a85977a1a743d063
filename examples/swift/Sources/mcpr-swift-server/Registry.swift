// The example's resources, policy and completers.
//
//   doc://item/NNN        120 exact resources (list pages of 50)
//   doc://empty           an explicitly empty text
//   doc://bundle          a partial read: one item read, one failing
//   doc://slow            a reader that waits until cancelled (or 30 s)
//   doc://stats           JSON counters: readers of doc://slow started and
//                         that saw their cancellation; calls of the hidden
//                         template's completer
//   doc://files/{name}    a template; {name} completes from a.txt, alpha.md, b.txt
//   doc://projects/{project}/files/{file}
//                         {project} completes from alpha, beta; {file} from the
//                         files of the project chosen in context.arguments
//   doc://many/{n}        a completer offering 150 values (the library sends 100)
//   doc://secret/{key}    hidden by the policy: never listed, read or completed
//                         (its completer never runs)
import Foundation
import MCPResources
import Synchronization

final class Stats: Sendable {
    let slowStarted = Atomic<Int>(0)
    let slowCanceled = Atomic<Int>(0)
    let secretCompletions = Atomic<Int>(0)

    var json: String {
        #"{"slowStarted":\#(slowStarted.load(ordering: .relaxed)),"# +
            #""slowCanceled":\#(slowCanceled.load(ordering: .relaxed)),"# +
            #""secretCompletions":\#(secretCompletions.load(ordering: .relaxed))}"#
    }
}

let hiddenTemplate = "doc://secret/{key}"

/// The policy: everything but the hidden template is discoverable; every
/// target is visible and readable.
struct ExamplePolicy: ResourcePolicy {
    func discover(_ call: Call, _ definition: Definition) throws -> Access {
        definition.uri == hiddenTemplate ? .deny : .allow
    }
    func visibility(_ call: Call, _ target: Target) throws -> Visibility { .visible }
    func read(_ call: Call, _ target: Target) throws -> Access { .allow }
}

/// Offers the candidates that start with the typed prefix.
func offer(_ values: CompletionBuilder, _ prefix: String, _ candidates: [String]) throws {
    for v in candidates where v.hasPrefix(prefix) { try values.add(v) }
}

/// A JSON object of string members (the definitions).
func definition(_ fields: [String: String]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

func buildRegistry(stats: Stats) throws -> Resources {
    let b = ResourcesBuilder()
    try b.setPolicy(ExamplePolicy()).setLimit(.defaultPageSize, 50)
    for i in 0..<120 {
        let n = String(format: "%03d", i)
        try b.add(definition(["uri": "doc://item/\(n)", "name": "item-\(n)", "mimeType": "text/plain"])) { _, _, out in
            try out.setText("item \(i)")
        }
    }
    try b.add(definition(["uri": "doc://empty", "name": "empty"])) { _, _, out in try out.setText("") }
    try b.add(definition(["uri": "doc://bundle", "name": "bundle"]), binding: BindingFunctions(resolve: { _, m, plan in
        try plan.setRequested(uri: m.uri)
        try plan.addItem(uri: m.uri)
        try plan.addItem(uri: "doc://bundle/broken")
    }, read: { _, t, out in
        if t.uri == "doc://bundle/broken" { throw CallbackFailure.failed("storage offline") }
        try out.setText("bundle head")
    }))
    try b.add(definition(["uri": "doc://slow", "name": "slow"])) { call, _, out in
        stats.slowStarted.add(1, ordering: .relaxed)
        let end = ContinuousClock.now + .seconds(30)
        while !call.isCanceled && ContinuousClock.now < end { usleep(5000) }
        if call.isCanceled {
            stats.slowCanceled.add(1, ordering: .relaxed)
            throw CallbackFailure.failed("cancelled")
        }
        try out.setText("slow")
    }
    try b.add(definition(["uri": "doc://stats", "name": "stats", "mimeType": "application/json"])) { _, _, out in
        try out.setText(stats.json, mimeType: "application/json")
    }
    try b.add(definition(["uriTemplate": "doc://files/{name}", "name": "files"]), binding: BindingFunctions(
        complete: { _, req, values in try offer(values, req.value, ["a.txt", "alpha.md", "b.txt"]) },
        read: { _, t, out in try out.setText("file \(t.uri)") }))
    let projectFiles = ["alpha": ["main.go", "manual.md"], "beta": ["main.py", "notes.txt"]]
    try b.add(definition(["uriTemplate": "doc://projects/{project}/files/{file}", "name": "projects"]),
              binding: BindingFunctions(complete: { _, req, values in
                  if req.argument == "project" { return try offer(values, req.value, ["alpha", "beta"]) }
                  // the context holds only valid captures of the other variables
                  try offer(values, req.value, req.contextValue("project").flatMap { projectFiles[$0] } ?? [])
              }, read: { _, t, out in try out.setText("project file \(t.uri)") }))
    try b.add(definition(["uriTemplate": "doc://many/{n}", "name": "many"]), binding: BindingFunctions(
        complete: { _, req, values in
            var n: UInt64 = 0
            for i in 0..<150 where String(format: "v%03d", i).hasPrefix(req.value) {
                try values.add(String(format: "v%03d", i))
                n += 1
            }
            try values.setTotal(n)
        }, read: { _, t, out in try out.setText("many \(t.uri)") }))
    try b.add(definition(["uriTemplate": hiddenTemplate, "name": "secret"]), binding: BindingFunctions(
        complete: { _, _, values in
            stats.secretCompletions.add(1, ordering: .relaxed)
            try values.add("leaked")
        }, read: { _, _, out in try out.setText("secret") }))
    return try b.build()
}
