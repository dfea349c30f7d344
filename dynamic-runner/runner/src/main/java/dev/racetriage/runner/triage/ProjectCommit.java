package dev.racetriage.runner.triage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The git commit a project's checkout is at, recorded with each run (the commit that fixed a race is its run's). */
public final class ProjectCommit {
  private ProjectCommit() {}

  /**
   * {@code git rev-parse --short=12 HEAD} in {@code root}, with {@code +dirty} when tracked files are modified; null
   * when the project is not in a git checkout, git is missing, or it does not answer within a few seconds.
   */
  public static String of(Path root) {
    String head = git(root, "rev-parse", "--short=12", "HEAD");
    if (head == null || head.isBlank()) return null;
    String changes = git(root, "status", "--porcelain", "--untracked-files=no", ".");
    return head.strip() + (changes != null && !changes.isBlank() ? "+dirty" : "");
  }

  private static String git(Path root, String... args) {
    String[] command = new String[args.length + 3];
    command[0] = "git";
    command[1] = "-C";
    command[2] = root.toString();
    System.arraycopy(args, 0, command, 3, args.length);
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(false)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readNBytes(64 * 1024);
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
