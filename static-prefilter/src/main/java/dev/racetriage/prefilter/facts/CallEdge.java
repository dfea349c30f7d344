package dev.racetriage.prefilter.facts;

/** A call from one body to a project method, both named by {@link MethodFacts#key()}. */
public record CallEdge(String caller, String callee) {}
