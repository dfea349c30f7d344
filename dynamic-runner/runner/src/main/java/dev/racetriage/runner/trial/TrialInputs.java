package dev.racetriage.runner.trial;

import dev.racetriage.store.trials.InputsKey;

/**
 * What a trial's result depends on, as one key: the project's class files ({@code fingerprint}), the agent
 * ({@code agentVersion}), the field, the test, the heuristic, the seed and the jumbled elements. A trial stored under the
 * same key by an interrupted triage is the same experiment, so a re-run reuses it instead of running it again.
 */
public record TrialInputs(String fingerprint, String agentVersion) {

  public String key(TrialSpec spec) {
    return InputsKey.of(fingerprint, agentVersion, spec.fieldKey(), spec.testName(), spec.heuristic(),
        Long.toString(spec.seed()), spec.indices().toString());
  }
}
