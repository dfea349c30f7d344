package dev.racetriage.agent.detect;

/**
 * A static program location of an access, registered by the instrumenter in the {@link SiteTable}.
 *
 * @param className binary class name ({@code pkg.Outer$Inner})
 * @param methodName method name ({@code <init>}, {@code <clinit>} included)
 * @param fileName source file from the class's SourceFile attribute, or {@code null} when compiled without it
 * @param line source line, or -1 when there is no line number table
 */
public record Site(String className, String methodName, String fileName, int line) {
    /** Stands for a site id that was never registered (or -1); keeps reports well-formed instead of failing. */
    public static final Site UNKNOWN = new Site("?", "?", null, -1);

    // equals/hashCode/toString are written out: generated record methods are bootstrapped by invokedynamic on first
    // use, and sites are compared on program threads inside the agent (race aggregation), where that must not happen.

    @Override
    public boolean equals(Object o) {
        return o instanceof Site s && line == s.line && className.equals(s.className)
                && methodName.equals(s.methodName) && java.util.Objects.equals(fileName, s.fileName);
    }

    @Override
    public int hashCode() {
        return ((className.hashCode() * 31 + methodName.hashCode()) * 31 + java.util.Objects.hashCode(fileName)) * 31
                + line;
    }

    /** {@code pkg.Cls.method(File.java:12)}, the form of a stack trace line. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(className.length() + methodName.length() + 24);
        sb.append(className).append('.').append(methodName).append('(')
                .append(fileName == null ? "Unknown Source" : fileName);
        if (line >= 0) {
            sb.append(':').append(line);
        }
        return sb.append(')').toString();
    }
}
