// ConcurrentHashMap.get from application code, 10,000 keys, 5 rounds of 3 million gets (RESULTS: "The atomic acquire's
// cover check"). javac -d /tmp/chm benchmarks/agent-slowdown/ChmGet.java &&
// java -javaagent:<agent jar>=mode=detect;out=/tmp/chm/r.jsonl -cp /tmp/chm ChmGet
import java.util.concurrent.ConcurrentHashMap;
public class ChmGet {
  public static void main(String[] a) throws Exception {
    ConcurrentHashMap<Integer,Integer> m = new ConcurrentHashMap<>();
    for (int i = 0; i < 10000; i++) m.put(i, i);
    long sum = 0;
    for (int r = 0; r < 5; r++) {
      long t0 = System.nanoTime();
      for (int k = 0; k < 300; k++) for (int i = 0; i < 10000; i++) sum += m.get(i);
      System.out.println("round " + r + " " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }
    System.out.println(sum);
  }
}
