package dev.racetriage.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small Maven projects for the fault tests: a destructive race, a hanging test, a test that prints 50 MB. */
final class FaultFixtures {
  private FaultFixtures() {}

  private static final String POM = """
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <modelVersion>4.0.0</modelVersion>
        <groupId>demo</groupId><artifactId>%s</artifactId><version>1.0</version>
        <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
        <dependencies>
          <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.14.1</version><scope>test</scope></dependency>
        </dependencies>
        <build><pluginManagement><plugins>
          <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
          <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
          <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version></plugin>
        </plugins></pluginManagement></build>
      </project>
      """;

  /** JUMBLE's busy-wait: {@code result} is destructive (a stale read fails the test), {@code done} benign. */
  static Path busyWait(Path dir) throws IOException {
    write(dir.resolve("pom.xml"), POM.formatted("busywait"));
    write(dir.resolve("src/main/java/demo/BusyWait.java"), """
        package demo;
        public class BusyWait {
          boolean done;
          long result;
          public void produce(int n) {
            long sum = 0;
            for (int i = 1; i <= n; i++) sum += i;
            result = sum;
            done = true;
          }
          public long awaitResult() {
            while (!done) Thread.onSpinWait();
            return result;
          }
        }
        """);
    write(dir.resolve("src/test/java/demo/BusyWaitTest.java"), """
        package demo;
        import static org.junit.jupiter.api.Assertions.assertEquals;
        import java.util.concurrent.atomic.AtomicReference;
        import org.junit.jupiter.api.Test;
        class BusyWaitTest {
          @Test void consumerSeesTheProducedSum() throws Exception {
            BusyWait shared = new BusyWait();
            AtomicReference<Long> seen = new AtomicReference<>();
            Thread consumer = new Thread(() -> seen.set(shared.awaitResult()));
            Thread producer = new Thread(() -> shared.produce(1000));
            consumer.start();
            producer.start();
            producer.join();
            consumer.join();
            assertEquals(500_500L, seen.get());
          }
        }
        """);
    return dir;
  }

  /** A racy counter test and a test that sleeps forever (in a class that runs first). */
  static Path hangingAndRacy(Path dir) throws IOException {
    racyCounter(dir, "hanging");
    write(dir.resolve("src/test/java/demo/HangTest.java"), """
        package demo;
        import org.junit.jupiter.api.Test;
        class HangTest {
          @Test void sleepsForever() throws Exception { Thread.sleep(Long.MAX_VALUE); }
        }
        """);
    return dir;
  }

  /** A racy counter test and a test that prints 50 MB and passes. */
  static Path chattyAndRacy(Path dir) throws IOException {
    racyCounter(dir, "chatty");
    write(dir.resolve("src/test/java/demo/ChattyTest.java"), """
        package demo;
        import org.junit.jupiter.api.Test;
        class ChattyTest {
          @Test void printsFiftyMegabytes() {
            String line = "x".repeat(1023);
            for (int i = 0; i < 50 * 1024; i++) System.out.println(line);
          }
        }
        """);
    return dir;
  }

  /** A counter two threads increment without synchronisation: {@code demo.Counter.hits} races. */
  static void racyCounter(Path dir, String artifact) throws IOException {
    write(dir.resolve("pom.xml"), POM.formatted(artifact));
    write(dir.resolve("src/main/java/demo/Counter.java"), """
        package demo;
        public class Counter {
          int hits;
          public void hit() { hits = hits + 1; }
        }
        """);
    write(dir.resolve("src/test/java/demo/CounterTest.java"), """
        package demo;
        import static org.junit.jupiter.api.Assertions.assertTrue;
        import org.junit.jupiter.api.Test;
        class CounterTest {
          @Test void twoThreadsCount() throws Exception {
            Counter c = new Counter();
            Thread a = new Thread(c::hit);
            Thread b = new Thread(c::hit);
            a.start(); b.start(); a.join(); b.join();
            assertTrue(c.hits >= 1);
          }
        }
        """);
  }

  /**
   * Two modules under one aggregator: {@code core} holds the racy counter, {@code tools} a test of its own that does
   * not race ({@code ToolTest}); a {@code --tests CounterTest} selection leaves {@code tools} with nothing to run.
   */
  static void twoModules(Path dir) throws IOException {
    write(dir.resolve("pom.xml"), """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>
          <modules><module>core</module><module>tools</module></modules>
        </project>
        """);
    racyCounter(dir.resolve("core"), "core");
    write(dir.resolve("tools/pom.xml"), POM.formatted("tools"));
    write(dir.resolve("tools/src/main/java/demo/tools/Tool.java"), """
        package demo.tools;
        public class Tool {
          public int twice(int x) { return 2 * x; }
        }
        """);
    write(dir.resolve("tools/src/test/java/demo/tools/ToolTest.java"), """
        package demo.tools;
        import static org.junit.jupiter.api.Assertions.assertEquals;
        import org.junit.jupiter.api.Test;
        class ToolTest {
          @Test void doubles() { assertEquals(4, new Tool().twice(2)); }
        }
        """);
  }

  /**
   * Issue 22's hidden race: {@code value} written by two threads, each next to an empty {@code synchronized} block on
   * one lock; the second thread takes the lock only after the first has ended (it polls {@code getState}, which
   * orders nothing), so happens-before sees the writes ordered and only {@code --predict} reports them.
   */
  static void emptySynchronizedBlocks(Path dir, String artifact) throws IOException {
    write(dir.resolve("pom.xml"), POM.formatted(artifact));
    write(dir.resolve("src/main/java/demo/Flag.java"), """
        package demo;
        public class Flag {
          private final Object lock = new Object();
          int value;
          public void writeThenFlush() { value = 1; synchronized (lock) { } }
          public void refreshThenWrite() { synchronized (lock) { } value = 2; }
        }
        """);
    write(dir.resolve("src/test/java/demo/FlagTest.java"), """
        package demo;
        import static org.junit.jupiter.api.Assertions.assertEquals;
        import org.junit.jupiter.api.Test;
        class FlagTest {
          @Test void secondWriteWins() throws Exception {
            Flag f = new Flag();
            Thread a = new Thread(f::writeThenFlush);
            Thread b = new Thread(() -> {
              while (a.getState() != Thread.State.TERMINATED) { Thread.onSpinWait(); }
              f.refreshThenWrite();
            });
            a.start(); b.start(); a.join(); b.join();
            assertEquals(2, f.value);
          }
        }
        """);
  }

  /** A {@code TreeMap} two threads put into, nothing ordering them (the peer suite's container miss). */
  static void sharedTreeMap(Path dir, String artifact) throws IOException {
    write(dir.resolve("pom.xml"), POM.formatted(artifact));
    write(dir.resolve("src/main/java/demo/Ranks.java"), """
        package demo;
        import java.util.Map;
        import java.util.TreeMap;
        public class Ranks {
          private final Map<Integer, String> ranks = new TreeMap<>();
          public void rank(int k) { ranks.put(k, "r" + k); }
        }
        """);
    write(dir.resolve("src/test/java/demo/RanksTest.java"), """
        package demo;
        import org.junit.jupiter.api.Test;
        class RanksTest {
          @Test void bothRank() throws Exception {
            Ranks r = new Ranks();
            Thread a = new Thread(() -> r.rank(1));
            Thread b = new Thread(() -> r.rank(2));
            a.start(); b.start(); a.join(); b.join();
          }
        }
        """);
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
