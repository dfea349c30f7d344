package dev.racetriage.prefilter.facts;

/**
 * A lock field that is one half of a read/write lock ({@code final Lock r = rw.readLock();}): holding {@code r} means
 * holding {@code rw} in {@code mode}.
 */
public record LockAlias(String lockFieldKey, String targetId, LockMode mode) {}
