package dev.racetriage.store.races;

/** Whether an access read or wrote the field. */
public enum AccessType {
  READ,
  WRITE
}
