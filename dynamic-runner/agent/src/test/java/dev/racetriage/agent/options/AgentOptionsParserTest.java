package dev.racetriage.agent.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgentOptionsParserTest {

  @Test
  void noArgumentMeansDetectModeWithDefaults() throws Exception {
    AgentOptions options = AgentOptionsParser.parse(null);
    assertEquals(AgentOptions.defaults(), options);
    assertEquals("detect", options.mode());
    assertEquals(AgentOptions.DEFAULT_OUT, AgentOptionsParser.parse("  ").out());
  }

  @Test
  void parsesEveryKey() throws Exception {
    AgentOptions options = AgentOptionsParser.parse(
        "mode=detect;out=/tmp/r.jsonl;include=com.acme.,org.x.Y;exclude=com.acme.gen.;stack=3;verbose=true;dump=d");
    assertEquals("/tmp/r.jsonl", options.out());
    assertEquals(List.of("com.acme.", "org.x.Y"), options.includes());
    assertEquals(List.of("com.acme.gen."), options.excludes());
    assertEquals(3, options.stackDepth());
    assertTrue(options.verbose());
    assertEquals("d", options.dumpDir());
  }

  @Test
  void cacheIsADirectoryOffOrTheDefault() throws Exception {
    assertEquals(null, AgentOptionsParser.parse("mode=detect").cache());
    assertEquals("/tmp/c", AgentOptionsParser.parse("mode=detect;cache=/tmp/c").cache());
    assertEquals(AgentOptions.CACHE_OFF, AgentOptionsParser.parse("cache=off").cache());
    assertEquals("cache", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("cache=")).option());
  }

  @Test
  void flushIsAnIntervalInDetectModeOrZero() throws Exception {
    assertEquals(AgentOptions.DEFAULT_FLUSH_MILLIS, AgentOptionsParser.parse("mode=detect").flushMillis());
    assertEquals(250, AgentOptionsParser.parse("flush=250").flushMillis());
    assertEquals(0, AgentOptionsParser.parse("flush=0").flushMillis());
    for (String bad : new String[] {"flush=99", "flush=-1", "flush=1s", "flush=", "flush=3600001"}) {
      InvalidAgentOptionException e = assertThrows(InvalidAgentOptionException.class,
          () -> AgentOptionsParser.parse(bad), bad);
      assertEquals("flush", e.option());
      assertTrue(e.getMessage().contains("or 0 to write it only at exit"), e.getMessage());
    }
    InvalidAgentOptionException jumble = assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=oldest;flush=500"));
    assertEquals("option 'flush' only applies with mode=detect", jumble.getMessage());
    assertEquals(0, AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=oldest").flushMillis());
  }

  @Test
  void arraysBoundsTheElementsCheckedPerArrayInDetectMode() throws Exception {
    assertEquals(AgentOptions.DEFAULT_MAX_ARRAY_ELEMENTS, AgentOptionsParser.parse("mode=detect").maxArrayElements());
    assertEquals(1000, AgentOptionsParser.parse("arrays=1000").maxArrayElements());
    for (String bad : new String[] {"arrays=-1", "arrays=4M", "arrays="}) {
      InvalidAgentOptionException e = assertThrows(InvalidAgentOptionException.class,
          () -> AgentOptionsParser.parse(bad), bad);
      assertEquals("arrays", e.option());
      assertTrue(e.getMessage().contains("12 bytes of shadow per element"), e.getMessage());
    }
    assertEquals("option 'arrays' only applies with mode=detect", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=oldest;arrays=9")).getMessage());
  }

  @Test
  void toleratesSpacesEmptyPairsAndTrailingSeparator() throws Exception {
    AgentOptions options = AgentOptionsParser.parse(" out = a.jsonl ;; verbose=false; ");
    assertEquals("a.jsonl", options.out());
    assertFalse(options.verbose());
  }

  @Test
  void unknownKeyIsNamedInTheMessage() {
    InvalidAgentOptionException e = assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=detect;outfile=x"));
    assertEquals("outfile", e.option());
    assertTrue(e.getMessage().contains("unknown option 'outfile'"), e.getMessage());
    assertTrue(e.getMessage().contains("known keys: mode, out"), e.getMessage());
  }

  @Test
  void badValuesAreRejectedWithWhatIsAccepted() {
    assertEquals("mode", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=replay")).option());
    assertTrue(assertThrows(InvalidAgentOptionException.class, () -> AgentOptionsParser.parse("stack=-1"))
        .getMessage().contains("0..64"));
    assertTrue(assertThrows(InvalidAgentOptionException.class, () -> AgentOptionsParser.parse("verbose=yes"))
        .getMessage().contains("true or false"));
    assertTrue(assertThrows(InvalidAgentOptionException.class, () -> AgentOptionsParser.parse("out="))
        .getMessage().contains("needs a value"));
    assertTrue(assertThrows(InvalidAgentOptionException.class, () -> AgentOptionsParser.parse("exclude=com/acme"))
        .getMessage().contains("dots"));
    assertTrue(assertThrows(InvalidAgentOptionException.class, () -> AgentOptionsParser.parse("detect"))
        .getMessage().contains("key=value"));
    assertTrue(assertThrows(InvalidAgentOptionException.class, () -> AgentOptionsParser.parse("out=a;out=b"))
        .getMessage().contains("given twice"));
  }

  @Test
  void jumbleModeParsesTheRunnersArgumentWithDefaults() throws Exception {
    AgentOptions options = AgentOptionsParser.parse(
        "mode=jumble;field=a.B.x,a.B$C.slots[];heuristic=oldest-but-different;seed=-42;out=/tmp/j.jsonl");
    assertTrue(options.jumbleMode());
    JumbleOptions j = options.jumble();
    assertEquals(List.of("a.B.x", "a.B$C.slots[]"), j.fields());
    assertEquals("oldest-but-different", j.heuristic());
    assertEquals(-42L, j.seed());
    assertEquals(32, j.bound());
    assertEquals(List.of(0, 1), j.indices());
    assertFalse(j.noise());
    assertEquals("/tmp/j.jsonl", options.out());
    assertFalse(AgentOptionsParser.parse("mode=detect").jumbleMode());
  }

  @Test
  void jumbleModeOptionalKeys() throws Exception {
    JumbleOptions j = AgentOptionsParser.parse(
        "mode=jumble;field=a.B.x;heuristic=sc;seed=1;bound=4;indices=3, 0;noise=on").jumble();
    assertEquals(4, j.bound());
    assertEquals(List.of(3, 0), j.indices());
    assertTrue(j.noise());
  }

  @Test
  void jumbleModeErrorsSayWhatIsExpected() {
    assertEquals("field", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;heuristic=sc")).option());
    assertEquals("heuristic", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.x")).option());
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.x;heuristic=newest")).getMessage()
        .contains("sc, oldest, oldest-but-different, random, random-but-different"));
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=x;heuristic=sc")).getMessage().contains("pkg.Cls.field"));
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.x;heuristic=sc;seed=abc")).getMessage()
        .contains("expected a long"));
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.x;heuristic=sc;bound=1")).getMessage()
        .contains("2..64"));
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.x;heuristic=sc;indices=-1")).getMessage()
        .contains("non-negative"));
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.x;heuristic=sc;noise=yes")).getMessage()
        .contains("on or off"));
    assertTrue(assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=detect;field=a.B.x")).getMessage().contains("only applies with mode=jumble"));
  }

  @Test
  void predictionIsOnByDefaultWithABudgetInDetectModeAndOffInJumbleMode() throws Exception {
    AgentOptions detect = AgentOptionsParser.parse("mode=detect");
    assertTrue(detect.predict());
    assertEquals(AgentOptions.DEFAULT_PREDICT_EVENTS, detect.predictEvents());
    assertFalse(AgentOptionsParser.parse("mode=detect;predict=false").predict());
    assertEquals(0, AgentOptionsParser.parse("mode=detect;predictEvents=0").predictEvents(), "no limit");
    assertEquals(5000, AgentOptionsParser.parse("mode=detect;predictEvents=5000").predictEvents());
    InvalidAgentOptionException negative = assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=detect;predictEvents=-1"));
    assertTrue(negative.getMessage().contains("or 0 for no limit"), negative.getMessage());
    assertFalse(AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=sc").predict());
    assertEquals("predictEvents", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=sc;predictEvents=10")).option());
  }

  @Test
  void containersAreModelledByDefaultInDetectModeAndContainerKeysAreTriedUnderScOrPerturb() throws Exception {
    assertTrue(AgentOptionsParser.parse("mode=detect").containers());
    assertFalse(AgentOptionsParser.parse("mode=detect;containers=false").containers());
    assertEquals("containers", assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=sc;containers=false")).option());
    assertEquals(List.of("a.B.map{}", "a.B.run(){}"), AgentOptionsParser.parse(
        "mode=jumble;field=a.B.map{},a.B.run(){};heuristic=perturb").jumble().fields());
    assertEquals("sc", AgentOptionsParser.parse("mode=jumble;field=a.B.map{};heuristic=sc").jumble().heuristic());
    InvalidAgentOptionException notForFields = assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.c;heuristic=perturb"));
    assertTrue(notForFields.getMessage().contains("heuristic=perturb tries container keys only"),
        notForFields.getMessage());
    InvalidAgentOptionException notStale = assertThrows(InvalidAgentOptionException.class,
        () -> AgentOptionsParser.parse("mode=jumble;field=a.B.map{};heuristic=oldest"));
    assertTrue(notStale.getMessage().contains("tried under heuristic=sc or heuristic=perturb"), notStale.getMessage());
  }
}
