package dev.racetriage.launcher.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The -Dtest syntax, case by case against Surefire's documentation ("Running a Single Test", "Inclusions and
 * Exclusions of Tests") and its TestListResolver/ResolvedTest.
 */
class TestSpecTest {

  /** spec | class | method ('' = class-level check) | runs */
  @ParameterizedTest(name = "{0} on {1}#{2}: {3}")
  @CsvSource(delimiterString = " | ", value = {
      // a simple name matches the class in any package
      "TestCircle | pkg.TestCircle | '' | true",
      "TestCircle | TestCircle | '' | true",
      "TestCircle | pkg.TestCircleSquare | '' | false",
      "TestCircle.java | a.b.TestCircle | '' | true",
      "TestCircle.class | a.b.TestCircle | '' | true",
      // wildcards
      "TestCi*le | pkg.TestCircle | '' | true",
      "TestCi*le | pkg.TestCirclx | '' | false",
      "???Test | pkg.AbcTest | '' | true",
      "???Test | pkg.AbcdTest | '' | false",
      "My*Test | deep.pkg.MyFancyTest | '' | true",
      // packages, dotted or as paths; ** spans packages
      "pkg.MyTest | pkg.MyTest | '' | true",
      "pkg.MyTest | other.pkg.MyTest | '' | true",
      "pkg.MyTest | other.MyTest | '' | false",
      "pkg/**/Ci*leTest.java | pkg.a.b.CircleTest | '' | true",
      "pkg/**/Ci*leTest.java | pkg.CircleTest | '' | true",
      "pkg/**/Ci*leTest.java | other.CircleTest | '' | false",
      "**/it/*Test | x.it.FooTest | '' | true",
      "**/it/*Test | x.it.sub.FooTest | '' | false",
      "MyTest.* | pkg.MyTest | '' | true",
      // as in Surefire, a trailing .* is a file extension, not a package wildcard
      "pkg.* | pkg.AnyTest | '' | false",
      "* | any.pkg.Thing | '' | true",
      // comma lists
      "TestSquare,TestCi*le | pkg.TestSquare | '' | true",
      "TestSquare, TestCi*le | pkg.TestCircle | '' | true",
      "TestSquare,TestCi*le | pkg.TestTriangle | '' | false",
      // methods
      "TestCircle#mytest | pkg.TestCircle | mytest | true",
      "TestCircle#mytest | pkg.TestCircle | other | false",
      "TestCircle#mytest | pkg.TestCircle | '' | true",
      "TestCircle#mytest | pkg.Other | mytest | false",
      "TestCircle#test* | pkg.TestCircle | testOne | true",
      "TestCircle#test* | pkg.TestCircle | oneTest | false",
      "TestCircle#testOne+testTwo | pkg.TestCircle | testTwo | true",
      "TestCircle#testOne+testTwo | pkg.TestCircle | testThree | false",
      "*Test#test*One+testTwo????? | pkg.ATest | testTwo12345 | true",
      "*Test#test*One+testTwo????? | pkg.ATest | testXOne | true",
      "*Test#test*One+testTwo????? | pkg.ATest | testTwo1234 | false",
      "#fast*+slowTest | pkg.Anything | fastOne | true",
      "#fast*+slowTest | pkg.Anything | slowTest | true",
      "#fast*+slowTest | pkg.Anything | medium | false",
      "#fast*+slowTest | pkg.Anything | '' | true",
      // exclusions
      "!Unstable* | pkg.UnstableTest | '' | false",
      "!Unstable* | pkg.StableTest | '' | true",
      "???Test, !Unstable* | pkg.AbcTest | '' | true",
      "*Test, !Abc* | pkg.AbcTest | '' | false",
      "*Test, !ATest#slow | pkg.ATest | slow | false",
      "*Test, !ATest#slow | pkg.ATest | fast | true",
      // a method exclusion never drops the whole class
      "*Test, !ATest#slow | pkg.ATest | '' | true",
      "!#slow* | pkg.ATest | slowOne | false",
      "!#slow* | pkg.ATest | '' | true",
      // regex: class part against the class file path, method part against the method name
      "%regex[.*(Cat|Dog).*Test.*] | pets.CatFoodTest | '' | true",
      "%regex[.*(Cat|Dog).*Test.*] | pets.BirdTest | '' | false",
      "%regex[.*.MyTest.class#one.*|two.*] | pkg.MyTest | oneA | true",
      "%regex[.*.MyTest.class#one.*|two.*] | pkg.MyTest | twoB | true",
      "%regex[.*.MyTest.class#one.*|two.*] | pkg.MyTest | three | false",
      "%regex[#fast.*|slow.*] | pkg.AnyTest | fastX | true",
      "%regex[#fast.*|slow.*] | pkg.AnyTest | other | false",
      "Basic*, !%regex[.*.Unstable.*] | pkg.BasicTest | '' | true",
      "Basic*, !%regex[.*.Unstable.*] | pkg.BasicUnstable | '' | false",
      "!%regex[.*.MyTest.class#one.*|two.*] | pkg.MyTest | oneA | false",
      "!%regex[.*.MyTest.class#one.*|two.*] | pkg.MyTest | three | true",
      "!%regex[.*.MyTest.class#one.*|two.*] | pkg.MyTest | '' | true",
  })
  void followsSurefire(String spec, String className, String method, boolean runs) {
    TestSpec parsed = TestSpec.parse(spec);
    boolean actual = method.isEmpty() ? parsed.runsClass(className) : parsed.runsMethod(className, method);
    assertEquals(runs, actual, () -> spec + " on " + className + "#" + method);
  }

  @Test
  void knowsWhenMethodsAreNamed() {
    assertFalse(TestSpec.parse("ATest, !BTest").hasMethodPatterns());
    assertTrue(TestSpec.parse("ATest#m").hasMethodPatterns());
    assertTrue(TestSpec.parse("ATest, !BTest#m").hasMethodPatterns());
    assertTrue(TestSpec.parse("%regex[#m.*]").hasMethodPatterns());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "'' | names no test",
      "' , ! ,' | names no test",
      "A#b#c | more than one '#'",
      "x%regex[.*] | %regex[classRegex#methodRegex]",
      "%regex[.*Test | %regex[classRegex#methodRegex]",
      "%regex[(unclosed#m] | not a valid regular expression",
      "%regex[.*#a#b] | more than one '#'",
  })
  void rejectsMalformedSpecsWithTheReason(String spec, String reason) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestSpec.parse(spec));
    assertTrue(e.getMessage().contains(reason), e.getMessage());
  }

  @Test
  void pomIncludesAndExcludesWorkLikeSurefiresScan() {
    TestSpec defaults = TestSpec.includesExcludes(
        List.of("**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"), List.of("**/*$*"));
    assertTrue(defaults.runsClass("pkg.FooTest"));
    assertTrue(defaults.runsClass("pkg.TestFoo"));
    assertTrue(defaults.runsClass("pkg.FooTests"));
    assertTrue(defaults.runsClass("pkg.FooTestCase"));
    assertFalse(defaults.runsClass("pkg.FooIT"));
    assertFalse(defaults.runsClass("pkg.Helper"));
    assertFalse(defaults.runsClass("pkg.Outer$InnerTest"));

    TestSpec pom = TestSpec.includesExcludes(List.of("**/*Test.java"), List.of("**/TestSoftRef*.java", "%regex[.*Slow.*]"));
    assertTrue(pom.runsClass("org.pool.TestPoolTest"));
    assertFalse(pom.runsClass("org.pool.TestSoftRefOutOfMemoryTest"));
    assertFalse(pom.runsClass("org.pool.SlowTest"));
    // the defaults are not added to excludes the pom gives
    assertTrue(pom.runsClass("org.pool.Outer$InnerTest"));

    assertThrows(IllegalArgumentException.class, () -> TestSpec.includesExcludes(List.of("A#m"), List.of()));
    assertThrows(IllegalArgumentException.class, () -> TestSpec.includesExcludes(List.of(), List.of("!A")));
  }
}
