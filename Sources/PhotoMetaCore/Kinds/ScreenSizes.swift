/// Screen sizes in pixels of common phones, tablets and desktop displays, portrait and
/// landscape. A camera-less PNG at one of these sizes is most likely a screenshot.
enum ScreenSizes {
    static let portrait: [(Int, Int)] = [
        // iPhone
        (640, 1136), (750, 1334), (828, 1792), (1080, 1920), (1125, 2436), (1170, 2532), (1179, 2556),
        (1206, 2622), (1242, 2208), (1242, 2688), (1284, 2778), (1290, 2796), (1320, 2868), (1080, 2340),
        // Android
        (720, 1280), (720, 1600), (1080, 2160), (1080, 2220), (1080, 2280), (1080, 2400), (1080, 2408),
        (1080, 2412), (1080, 2640), (1220, 2712), (1260, 2800), (1344, 2992), (1440, 2560), (1440, 2960),
        (1440, 3040), (1440, 3088), (1440, 3120), (1440, 3200), (1080, 2376), (1200, 2670),
        // iPad
        (1536, 2048), (1620, 2160), (1640, 2360), (1668, 2224), (1668, 2388), (2048, 2732), (1488, 2266),
        // Desktop (given here portrait, matched either way)
        (720, 1280), (800, 1280), (1024, 1280), (768, 1366), (900, 1440), (864, 1536), (900, 1600),
        (1050, 1680), (1080, 1920), (1200, 1920), (1080, 2560), (1440, 2560), (1600, 2560), (1800, 2880),
        (1964, 3024), (2234, 3456), (2160, 3840), (2880, 5120), (1824, 2736), (2000, 3000), (1440, 3440),
    ]

    static let all: Set<Int64> = {
        var s = Set<Int64>()
        for (w, h) in portrait {
            s.insert(key(w, h))
            s.insert(key(h, w))
        }
        return s
    }()

    static func key(_ w: Int, _ h: Int) -> Int64 { Int64(w) << 32 | Int64(h) }

    static func isScreen(width: Int, height: Int) -> Bool { all.contains(key(width, height)) }
}
