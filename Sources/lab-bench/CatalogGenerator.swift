import Foundation

/// Writes catalogs of generated experiments, for benchmarks.
enum CatalogGenerator {
    /// Spreads `experiments` over `sources` catalog files; every experiment has
    /// two keys of its own and three variants, and a third have token ranges.
    static func write(experiments: Int, sources: Int, into folder: String) throws -> [String] {
        var paths: [String] = []
        for source in 0..<sources {
            var items: [String] = []
            for index in stride(from: source, to: experiments, by: sources) {
                let name = String(format: "Experiment%05d", index)
                let keys = ["color\(index)", "size\(index)"]
                let range = index % 3 == 0 ? #""activeTokenRange": [0.0, 0.5], "# : ""
                let variants = ["Control", "Bold", "Quiet"].enumerated().map { offset, variant in
                    #"{"name": "\#(name)\#(variant)", "weight": \#(offset + 1), "assignments": {"\#(keys[0])": "\#(variant.lowercased())", "\#(keys[1])": \#(10 + offset)}}"#
                }
                items.append(
                    #"{"name": "\#(name)", "keys": ["\#(keys[0])", "\#(keys[1])"], \#(range)"baseline": "\#(name)Control", "variants": [\#(variants.joined(separator: ", "))]}"#
                )
            }
            let text =
                #"{"source": "Source\#(source + 1)", "experiments": [\#n"# + items.joined(separator: ",\n") + "\n]}\n"
            let path = folder + "/source\(source + 1).json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }
}
