import Foundation
import Laboratory
import LaboratoryRuntime
import LaboratoryServer

/// What `lab serve` does after a force: rebuilds everything it answers from
/// (``ServedStateHub/rebuild()``), over the generated catalogs. Goal: under 20 ms.
enum ServeRebuildBench {
    static func run(paths: [String], folder: String) throws {
        let catalogs = try zip(paths, CatalogDecoder().decode(contentsOf: paths)).map {
            (path: $0, catalog: try $1.get())
        }
        let laboratory = try LocalLaboratory(
            catalogs: catalogs,
            statePath: folder + "/serve.sqlite",
            debugSource: true,
            app: nil
        )
        guard let debug = laboratory.debug else { return }
        let hub = try ServedStateHub(laboratory: laboratory)
        let experiment = catalogs[0].catalog.experiments[1]
        var samples: [Double] = []
        for round in 0..<21 {
            try debug.force(variant: experiment.variants[round % experiment.variants.count].name, of: experiment.name)
            let start = DispatchTime.now().uptimeNanoseconds
            try hub.rebuild()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        print(
            String(
                format: "lab serve rebuild after one force, median of 21:      %8.1f ms (min %.1f, max %.1f)",
                samples[samples.count / 2],
                samples[0],
                samples[samples.count - 1]
            )
        )
    }
}
