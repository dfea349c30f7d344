import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop load generator for the dashboard's race table API (GET /api/races), used by run.sh.
 *
 * <p>Usage: {@code java benchmarks/dashboard/LoadRaces.java BASE_URL [CLIENTS=8] [SECONDS=20] [WARMUP_SECONDS=5]}.
 * For each request kind in turn, CLIENTS threads each send the request, wait for the whole answer, and send the next
 * one, for SECONDS; every latency is recorded (no sampling), so p50/p99/max are exact over the measured window. A
 * warm-up of the same kind runs first and is not recorded, so JIT compilation and SQLite's page cache do not land in
 * the numbers. Each client has its own HttpClient (its own keep-alive connection), as separate browsers would.
 *
 * <p>Closed loop means a slow answer delays the next request (coordinated omission): the latencies are those seen by
 * CLIENTS users clicking as fast as the server answers, not by an open arrival rate.
 */
public class LoadRaces {
  /** The mix named in the issue: first page, a deep page, a verdict filter, a text filter, a sort. */
  private static final Map<String, String> KINDS = new LinkedHashMap<>();

  static {
    KINDS.put("first page", "/api/races?offset=0&limit=50");
    KINDS.put("deep page (offset 9000)", "/api/races?offset=9000&limit=50");
    KINDS.put("verdict filter (destructive,qos)", "/api/races?verdict=destructive,qos&limit=50");
    KINDS.put("text filter (q=Cache42)", "/api/races?q=Cache42&limit=50");
    KINDS.put("sort (last-seen desc)", "/api/races?sort=last-seen&desc=true&limit=50");
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: LoadRaces BASE_URL [CLIENTS=8] [SECONDS=20] [WARMUP_SECONDS=5]");
      System.exit(2);
    }
    String base = args[0];
    int clients = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    if (clients < 1 || seconds < 1 || warmup < 0) {
      System.err.println("CLIENTS and SECONDS must be at least 1 and WARMUP_SECONDS at least 0, got "
          + clients + ", " + seconds + ", " + warmup);
      System.exit(2);
    }

    System.out.printf("%d clients, %d s per kind after %d s warm-up, against %s%n%n", clients, seconds, warmup, base);
    System.out.println("| request | requests | errors | p50 ms | p99 ms | max ms | requests/s |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    boolean failed = false;
    for (Map.Entry<String, String> kind : KINDS.entrySet()) {
      URI uri = URI.create(base + kind.getValue());
      drive(uri, clients, warmup);
      Result r = drive(uri, clients, seconds);
      long[] sorted = r.latenciesNanos();
      Arrays.sort(sorted);
      System.out.printf("| %s `%s` | %d | %d | %.1f | %.1f | %.1f | %.0f |%n",
          kind.getKey(), kind.getValue(), sorted.length, r.errors(),
          millis(percentile(sorted, 0.50)), millis(percentile(sorted, 0.99)),
          millis(sorted.length == 0 ? 0 : sorted[sorted.length - 1]), sorted.length / r.elapsedSeconds());
      if (sorted.length == 0) {
        System.err.println(kind.getKey() + ": no request completed in " + seconds + " s");
        failed = true;
      }
      if (r.errors() > 0) {
        System.err.println(kind.getKey() + ": " + r.errors() + " failed requests, first: " + r.firstError());
        failed = true;
      }
    }
    System.exit(failed ? 1 : 0);
  }

  private record Result(long[] latenciesNanos, long errors, String firstError, double elapsedSeconds) {}

  /** Runs {@code clients} closed-loop threads against {@code uri} for {@code seconds}; returns every latency. */
  private static Result drive(URI uri, int clients, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    List<long[]> perClient = new ArrayList<>();
    int[] counts = new int[clients];
    AtomicLong errors = new AtomicLong();
    String[] firstError = new String[1];
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      long[] latencies = new long[1 << 16];
      perClient.add(latencies);
      int client = c;
      Thread t = new Thread(() -> {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build();
        long[] mine = latencies;
        int n = 0;
        while (System.nanoTime() < deadline) {
          long t0 = System.nanoTime();
          try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long elapsed = System.nanoTime() - t0;
            if (response.statusCode() != 200) {
              recordError(errors, firstError, "HTTP " + response.statusCode() + " from " + uri);
              continue;
            }
            if (n == mine.length) {
              mine = Arrays.copyOf(mine, mine.length * 2);
              perClient.set(client, mine);
            }
            mine[n++] = elapsed;
          } catch (Exception e) {
            recordError(errors, firstError, e + " from " + uri);
          }
        }
        synchronized (counts) {
          counts[client] = n;
          perClient.set(client, mine);
        }
      }, "client-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    long total = 0;
    synchronized (counts) {
      for (int n : counts) {
        total += n;
      }
      long[] all = new long[(int) total];
      int at = 0;
      for (int c = 0; c < clients; c++) {
        System.arraycopy(perClient.get(c), 0, all, at, counts[c]);
        at += counts[c];
      }
      return new Result(all, errors.get(), firstError[0], elapsed);
    }
  }

  private static void recordError(AtomicLong errors, String[] firstError, String what) {
    if (errors.getAndIncrement() == 0) {
      synchronized (firstError) {
        firstError[0] = what;
      }
    }
  }

  /** Nearest-rank percentile of a sorted array. */
  private static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }
}
