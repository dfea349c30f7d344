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
        () -> AgentOptionsParser.parse("mode=jumble")).option());
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
}
