package dev.racetriage.prefilter.facts;

import java.util.List;

/**
 * Everything the analysis keeps from one source file. The project's facts are the union of its files' facts, so an
 * edit replaces one {@code FileFacts} and leaves the rest alone.
 *
 * @param file the file's path as given to the parser
 * @param fields fields declared in the file
 * @param types classes declared in the file
 * @param methods bodies of code in the file
 * @param calls calls made from the file
 * @param accesses field accesses in the file (of fields declared anywhere in the project)
 * @param patterns pattern hits in the file
 * @param lockAliases read/write lock halves stored in fields
 * @param syntaxErrors how many syntax problems JDT reported (the file was analysed as far as it recovered)
 * @param unresolvedAccesses how many accesses were matched by name because a binding was missing
 * @param handoffs parameters of the file's methods that reach threads, and tasks the file passes to project methods
 * @param handedOffTypes project classes whose instances the file passes between threads through java.util.concurrent
 *     (a queue's or future's element type, objects captured by an executor task)
 */
public record FileFacts(
    String file,
    List<FieldDecl> fields,
    List<TypeFacts> types,
    List<MethodFacts> methods,
    List<CallEdge> calls,
    List<Access> accesses,
    List<PatternHit> patterns,
    List<LockAlias> lockAliases,
    int syntaxErrors,
    int unresolvedAccesses,
    List<TaskHandoff> handoffs,
    List<String> handedOffTypes) {

  public FileFacts {
    fields = List.copyOf(fields);
    types = List.copyOf(types);
    methods = List.copyOf(methods);
    calls = List.copyOf(calls);
    accesses = List.copyOf(accesses);
    patterns = List.copyOf(patterns);
    lockAliases = List.copyOf(lockAliases);
    handoffs = List.copyOf(handoffs);
    handedOffTypes = List.copyOf(handedOffTypes);
  }
}
