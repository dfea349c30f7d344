package dev.racetriage.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version from the jar manifest, or "development" when run from classes. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = RacetriageCommand.class.getPackage().getImplementationVersion();
    return new String[] {"racetriage " + (version == null ? "development build" : version)};
  }
}
