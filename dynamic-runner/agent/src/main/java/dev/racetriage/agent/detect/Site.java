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

    /** {@code pkg.Cls.method(File.java:12)}, the form of a stack trace line. */
    @Override
    public String toString() {
        return className + "." + methodName + "(" + (fileName == null ? "Unknown Source" : fileName)
                + (line >= 0 ? ":" + line : "") + ")";
    }
}
