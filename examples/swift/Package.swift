// swift-tools-version:6.0
// A small MCP server on stdio written in Swift over the MCPResources
// package at the root of this repository (a path dependency; a server
// elsewhere depends on it by URL, see bindings/swift/README.md). Build it
// like the package itself: PKG_CONFIG_PATH at the installed library's
// lib/pkgconfig, MCPR_SWIFT_STATIC=1 for a static link.
import PackageDescription

// SwiftPM names a path dependency after its directory: the clone's name.
let root = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "mcp-resources"

let package = Package(
    name: "mcpr-swift-example",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "mcpr-swift-server",
            dependencies: [.product(name: "MCPResources", package: root.lowercased())],
            path: "Sources/mcpr-swift-server"
        ),
        // The 20-line server of the README.
        .executableTarget(
            name: "mcpr-swift-hello",
            dependencies: [.product(name: "MCPResources", package: root.lowercased())],
            path: "Sources/mcpr-swift-hello"
        ),
    ],
    swiftLanguageModes: [.v6]
)
