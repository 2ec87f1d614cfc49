// swift-tools-version:6.0
// An app that depends on the `GrowthBook` product alone: `.ci/run` builds it
// and checks that nothing else of this package is compiled for it.
import PackageDescription

let package = Package(
    name: "AppImportingGrowthBook",
    dependencies: [.package(name: "Laboratory", path: "../..")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "GrowthBook", package: "Laboratory")])
    ]
)
