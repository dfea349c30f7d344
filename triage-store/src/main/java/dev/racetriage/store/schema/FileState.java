package dev.racetriage.store.schema;

/** What {@link SchemaInspector} found in a file that racetriage may use: nothing yet, or its own schema at a version. */
public record FileState(boolean fresh, int version) {
  public static FileState freshFile() {
    return new FileState(true, 0);
  }

  public static FileState racetriage(int version) {
    return new FileState(false, version);
  }
}
