// completion/complete for template variables.
import MCPResources
import XCTest

private struct Files: ResourceCompleter {
    static let files = ["alpha": ["main.go", "manual.md", "readme"], "beta": ["main.py"]]
    func read(_ call: Call, _ target: Target, _ payload: PayloadBuilder) throws {
        try payload.setText("file \(target.uri)")
    }
    func complete(_ call: Call, _ request: CompletionRequest, _ values: CompletionBuilder) throws {
        XCTAssertEqual(call.phase, .completion)
        XCTAssertEqual(request.definition.uri, "file:///projects/{project}/files/{file}")
        switch request.argument {
        case "project":
            for p in Self.files.keys.sorted() where p.hasPrefix(request.value) { try values.add(p) }
        case "file":
            let project = request.contextValue("project") ?? ""
            XCTAssertEqual(request.context.first?.name, project.isEmpty ? nil : "project")
            for f in Self.files[project] ?? [] where f.hasPrefix(request.value) { try values.add(f) }
        default:
            XCTFail("argument \(request.argument)")
        }
    }
}

final class CompletionTests: XCTestCase {
    private func registry() throws -> Resources {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uriTemplate":"file:///projects/{project}/files/{file}","name":"f"}"#,
                                      binding: Files())
        try b.add(#"{"uriTemplate":"many://m/{n}","name":"many"}"#, binding: BindingFunctions(complete: { _, _, values in
            XCTAssertFalse(try values.add(""), "an empty value is dropped")
            XCTAssertFalse(try values.add("a/b"), "a value with / is dropped")
            XCTAssertFalse(try values.add(".."))
            for i in 0..<150 { XCTAssertTrue(try values.add(String(format: "v%03d", i))) }
            try values.setTotal(150)
        }, read: { _, _, _ in }))
        try b.add(#"{"uri":"doc://plain","name":"plain"}"#, binding: textBinding)
        return try b.build()
    }

    func testValuesComeFromTheCompleterWithTheChosenContext() throws {
        let r = try registry()
        XCTAssertTrue(r.completes)
        let t = "file:///projects/{project}/files/{file}"
        func values(_ c: CompletionResult) -> [String] {
            ((object(c.json)["completion"] as? [String: Any])?["values"] as? [String]) ?? []
        }
        XCTAssertEqual(values(try r.complete(template: t, argument: "project", value: "")), ["alpha", "beta"])
        let alpha = try r.complete(template: t, argument: "file", value: "ma", context: [("project", "alpha")])
        XCTAssertEqual(values(alpha), ["main.go", "manual.md"])
        XCTAssertEqual(alpha.valueCount, 2)
        XCTAssertFalse(alpha.hasMore)
        XCTAssertEqual(values(try r.complete(template: t, argument: "file", value: "ma", context: [("project", "beta")])),
                       ["main.py"])
        XCTAssertEqual(values(try r.complete(template: t, argument: "file", value: "ma")), [])
        // 2026-07-28 results carry resultType, never cache fields
        let modern = object(try r.complete(template: t, argument: "project", value: "",
                                           options: ReadOptions(protocolRevision: "2026-07-28")).json)
        XCTAssertEqual(modern["resultType"] as? String, "complete")
        XCTAssertNil(modern["ttlMs"])
    }

    func testAtMost100ValuesAreSentWithHasMoreAndTheTotal() throws {
        let c = try registry().complete(template: "many://m/{n}", argument: "n", value: "")
        XCTAssertEqual(c.valueCount, 100)
        XCTAssertTrue(c.hasMore)
        let completion = try XCTUnwrap(object(c.json)["completion"] as? [String: Any])
        XCTAssertEqual(completion["total"] as? Int, 150)
        XCTAssertEqual((completion["values"] as? [String])?.first, "v000")
    }

    func testUnknownTemplatesAreNotFoundAndUnknownArgumentsInvalid() throws {
        let r = try registry()
        let e = try XCTUnwrap(mcprError { try r.complete(template: "nowhere://{x}", argument: "x", value: "") })
        XCTAssertEqual(e.status, .unavailable)
        XCTAssertEqual((object(e.jsonrpcJSON)["data"] as? [String: Any])?["uri"] as? String, "nowhere://{x}")
        let t = "file:///projects/{project}/files/{file}"
        XCTAssertEqual(mcprError { try r.complete(template: t, argument: "owner", value: "") }?.status, .invalidRequest)
        XCTAssertEqual(mcprError { try r.complete(template: t, argument: "file", value: "",
                                                  context: [("project", "../alpha")]) }?.status, .invalidRequest)
        XCTAssertFalse(try docsRegistry().completes)
    }
}
