// swift-tools-version:6.0
// The Swift package of mcp-resources: the module MCPResources
// (bindings/swift/Sources/MCPResources), a Swift wrapper over the C library,
// and CMCPResources, the system-library target over the installed C header.
//
// The library itself is not built by SwiftPM: install it with CMake first
// (bindings/swift/README.md) and point PKG_CONFIG_PATH at its
// lib/pkgconfig. Linking:
// - shared (default): pkg-config module mcp_resources; give the program an
//   rpath (`swift build -Xlinker -rpath -Xlinker <prefix>/lib`);
// - static: set MCPR_SWIFT_STATIC=1 when building; pkg-config module
//   mcp_resources_swiftpm_static, so the program needs no shared library
//   at run time.
import PackageDescription

let linkStatic = Context.environment["MCPR_SWIFT_STATIC"] == "1"

let package = Package(
    name: "mcp-resources",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MCPResources", targets: ["MCPResources"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMCPResources",
            path: "bindings/swift/CMCPResources",
            pkgConfig: linkStatic ? "mcp_resources_swiftpm_static" : "mcp_resources_swiftpm"
        ),
        .target(
            name: "MCPResources",
            dependencies: ["CMCPResources"],
            path: "bindings/swift/Sources/MCPResources"
        ),
        .executableTarget(
            name: "mcpr-swift-bench",
            dependencies: ["MCPResources", "CMCPResources"],
            path: "bindings/swift/Benchmarks/mcpr-swift-bench"
        ),
        .testTarget(
            name: "MCPResourcesTests",
            dependencies: ["MCPResources", "CMCPResources"],
            path: "bindings/swift/Tests/MCPResourcesTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
