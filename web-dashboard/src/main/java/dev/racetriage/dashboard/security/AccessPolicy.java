package dev.racetriage.dashboard.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Who may do what. On a loopback bind without a token anyone on this machine may read and triage (mutations still
 * need CSRF proof). With a token every mutation needs it. On a non-loopback bind a token is required — the
 * dashboard refuses to start without one — and reads need it too, since the race pages show the project's source.
 */
public final class AccessPolicy {
  /** Tokens shorter than this are guessable over a network; refuse them rather than pretend they protect. */
  static final int MIN_TOKEN_LENGTH = 12;

  private final BindAddress bind;
  private final byte[] token;

  private AccessPolicy(BindAddress bind, byte[] token) {
    this.bind = bind;
    this.token = token;
  }

  public static AccessPolicy of(BindAddress bind, String token) {
    if (token != null && token.isBlank()) {
      token = null;
    }
    if (!bind.loopback() && token == null) {
      throw new IllegalArgumentException(
          "refusing to serve the dashboard on " + bind.host() + " without a token: other machines could change "
              + "verdicts. Add --token <secret> (at least " + MIN_TOKEN_LENGTH + " characters) or bind to 127.0.0.1");
    }
    if (token != null && token.length() < MIN_TOKEN_LENGTH) {
      throw new IllegalArgumentException(
          "the dashboard token is too short (" + token.length() + " characters): use at least " + MIN_TOKEN_LENGTH
              + ", e.g. the output of 'openssl rand -hex 16'");
    }
    return new AccessPolicy(bind, token == null ? null : token.getBytes(StandardCharsets.UTF_8));
  }

  public BindAddress bind() {
    return bind;
  }

  public boolean tokenConfigured() {
    return token != null;
  }

  public boolean mutationsNeedToken() {
    return token != null;
  }

  public boolean readsNeedToken() {
    return token != null && !bind.loopback();
  }

  /** Constant-time comparison, so response timing does not reveal how much of a guess was right. */
  public boolean tokenMatches(String candidate) {
    if (token == null || candidate == null) {
      return false;
    }
    return MessageDigest.isEqual(token, candidate.getBytes(StandardCharsets.UTF_8));
  }

  /** The token from an {@code Authorization: Bearer …} header, if that is what the header holds. */
  public static Optional<String> bearer(String authorizationHeader) {
    if (authorizationHeader == null) {
      return Optional.empty();
    }
    String prefix = "Bearer ";
    if (authorizationHeader.regionMatches(true, 0, prefix, 0, prefix.length())) {
      return Optional.of(authorizationHeader.substring(prefix.length()).strip());
    }
    return Optional.empty();
  }
}
