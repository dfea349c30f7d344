package dev.racetriage.runner.project;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BuildErrorsTest {
  @Test
  void keepsTheErrorWithoutColoursOrMavensBoilerplate() {
    String output = String.join("\n",
        "\u001B[1;31m[ERROR]\u001B[m COMPILATION ERROR : ",
        "\u001B[1;31m[ERROR]\u001B[m /p/src/main/java/demo/A.java:[3,5] cannot find symbol",
        "\u001B[1;31m[ERROR]\u001B[m -> \u001B[1m[Help 1]\u001B[m",
        "\u001B[1;31m[ERROR]\u001B[m ",
        "\u001B[1;31m[ERROR]\u001B[m To see the full stack trace of the errors, re-run Maven with the -e switch.",
        "\u001B[1;31m[ERROR]\u001B[m Re-run Maven using the \u001B[1m-X\u001B[m switch to enable full debug logging.",
        "\u001B[1;31m[ERROR]\u001B[m For more information about the errors and possible solutions, please read:",
        "\u001B[1;31m[ERROR]\u001B[m \u001B[1m[Help 1]\u001B[m http://cwiki.apache.org/confluence/display/MAVEN/X");
    assertEquals(String.join(System.lineSeparator(), "[ERROR] COMPILATION ERROR :",
        "[ERROR] /p/src/main/java/demo/A.java:[3,5] cannot find symbol"), BuildErrors.essence(output));
  }

  @Test
  void outputWithNothingButNoiseIsKeptAsItIs() {
    assertEquals("[ERROR] -> [Help 1]", BuildErrors.essence("\u001B[1;31m[ERROR]\u001B[m -> [Help 1]"));
  }
}
