package dev.racetriage.agent.detect;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Site ids: the instrumenter registers each access site once, at class transformation, and bakes the returned int
 * into the instrumented code; the detector looks sites up only when it reports a race. Registering the same site
 * twice returns the same id. Thread-safe (class transformation runs on many threads); lookups are rare, so one
 * monitor guards everything.
 */
public final class SiteTable {
    private Site[] sites = new Site[256];
    private int size;
    private final Map<Site, Integer> ids = new HashMap<>();

    /** The id of (class, method, file, line), registering it on first sight. Ids are dense, starting at 0. */
    public synchronized int register(String className, String methodName, String fileName, int line) {
        Site site = new Site(className, methodName, fileName, line);
        Integer known = ids.get(site);
        if (known != null) {
            return known;
        }
        if (size == sites.length) {
            sites = Arrays.copyOf(sites, size * 2);
        }
        sites[size] = site;
        ids.put(site, size);
        return size++;
    }

    /** The site of an id, or {@link Site#UNKNOWN} for -1 or an id this table never handed out. */
    public synchronized Site site(int id) {
        return id >= 0 && id < size ? sites[id] : Site.UNKNOWN;
    }

    public synchronized int size() {
        return size;
    }
}
