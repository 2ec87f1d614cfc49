import Foundation

/// Pearson's chi-square goodness-of-fit test.
package enum ChiSquare {
    /// The statistic for observed counts against expected shares (which are normalised).
    package static func statistic(observed: [Int], expectedShares: [Double]) -> Double {
        let total = Double(observed.reduce(0, +))
        let shares = expectedShares.reduce(0, +)
        guard total > 0, shares > 0 else { return 0 }
        return zip(observed, expectedShares).reduce(0) { sum, pair in
            let expected = total * pair.1 / shares
            guard expected > 0 else { return sum }
            let difference = Double(pair.0) - expected
            return sum + difference * difference / expected
        }
    }

    /// The probability of a statistic at least this large with `degrees` degrees
    /// of freedom: the upper regularized incomplete gamma function Q(k/2, x/2).
    package static func pValue(_ statistic: Double, degrees: Int) -> Double {
        guard degrees > 0, statistic > 0 else { return 1 }
        return upperRegularizedGamma(Double(degrees) / 2, statistic / 2)
    }

    /// Q(a, x), by its series below a + 1 and its continued fraction above
    /// (Numerical Recipes, `gammq`).
    static func upperRegularizedGamma(_ a: Double, _ x: Double) -> Double {
        let logGammaA: Double = lgamma(a)
        if x < a + 1 {
            var term = 1 / a
            var sum = term
            var n = a
            for _ in 0..<1000 {
                n += 1
                term *= x / n
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return max(0, 1 - sum * exp(-x + a * log(x) - logGammaA))
        }
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        for i in 1...1000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return min(1, exp(-x + a * log(x) - logGammaA) * h)
    }
}
