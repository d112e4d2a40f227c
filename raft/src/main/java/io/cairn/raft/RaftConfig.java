package io.cairn.raft;

import java.time.Duration;
import java.util.Objects;

/**
 * Immutable, validated settings of one Raft group member.
 *
 * <ul>
 *   <li>{@code electionTimeout}: a follower that hears nothing from a leader for a random time in
 *       {@code [electionTimeout, 2 * electionTimeout)} starts an election; a leader that hears from
 *       no majority for {@code electionTimeout} steps down. Must be at least twice the heartbeat.
 *   <li>{@code heartbeatInterval}: how often an idle leader sends an empty append to each follower.
 *   <li>{@code requestTimeout}: how long the leader waits for an append or snapshot-chunk response
 *       before it sends again from the last acknowledged index.
 *   <li>{@code maxAppendBatchBytes}: upper bound of the entry bytes in one append request (one
 *       entry larger than this is still sent alone).
 *   <li>{@code maxInFlightAppends}: pipelining bound: unacknowledged append requests per follower.
 *   <li>{@code preVote}: run a pre-vote round before incrementing the term, so that a member that
 *       was cut off does not disrupt a healthy leader when it comes back.
 * </ul>
 */
public final class RaftConfig {

  public static final Duration ELECTION_TIMEOUT_DEFAULT = Duration.ofMillis(2500);
  public static final Duration HEARTBEAT_INTERVAL_DEFAULT = Duration.ofMillis(250);
  public static final Duration REQUEST_TIMEOUT_DEFAULT = Duration.ofMillis(1000);
  public static final int MAX_APPEND_BATCH_BYTES_DEFAULT = 256 * 1024;
  public static final int MAX_IN_FLIGHT_APPENDS_DEFAULT = 4;
  public static final boolean PRE_VOTE_DEFAULT = true;

  /** Upper bound of maxAppendBatchBytes: keeps one request well below the transport frame limit. */
  public static final int MAX_APPEND_BATCH_BYTES_LIMIT = 4 * 1024 * 1024;

  /** Upper bound of maxInFlightAppends. */
  public static final int MAX_IN_FLIGHT_APPENDS_LIMIT = 64;

  private final Duration electionTimeout;
  private final Duration heartbeatInterval;
  private final Duration requestTimeout;
  private final int maxAppendBatchBytes;
  private final int maxInFlightAppends;
  private final boolean preVote;

  private RaftConfig(Builder builder) {
    electionTimeout = builder.electionTimeout;
    heartbeatInterval = builder.heartbeatInterval;
    requestTimeout = builder.requestTimeout;
    maxAppendBatchBytes = builder.maxAppendBatchBytes;
    maxInFlightAppends = builder.maxInFlightAppends;
    preVote = builder.preVote;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings with every default. */
  public static RaftConfig defaults() {
    return builder().build();
  }

  public Duration electionTimeout() {
    return electionTimeout;
  }

  public Duration heartbeatInterval() {
    return heartbeatInterval;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public int maxAppendBatchBytes() {
    return maxAppendBatchBytes;
  }

  public int maxInFlightAppends() {
    return maxInFlightAppends;
  }

  public boolean preVote() {
    return preVote;
  }

  public Builder toBuilder() {
    return new Builder()
        .electionTimeout(electionTimeout)
        .heartbeatInterval(heartbeatInterval)
        .requestTimeout(requestTimeout)
        .maxAppendBatchBytes(maxAppendBatchBytes)
        .maxInFlightAppends(maxInFlightAppends)
        .preVote(preVote);
  }

  @Override
  public String toString() {
    return "RaftConfig{electionTimeout="
        + electionTimeout
        + ", heartbeatInterval="
        + heartbeatInterval
        + ", requestTimeout="
        + requestTimeout
        + ", maxAppendBatchBytes="
        + maxAppendBatchBytes
        + ", maxInFlightAppends="
        + maxInFlightAppends
        + ", preVote="
        + preVote
        + '}';
  }

  /** Collects settings; {@link #build()} validates every field and the rules between them. */
  public static final class Builder {
    private Duration electionTimeout = ELECTION_TIMEOUT_DEFAULT;
    private Duration heartbeatInterval = HEARTBEAT_INTERVAL_DEFAULT;
    private Duration requestTimeout = REQUEST_TIMEOUT_DEFAULT;
    private int maxAppendBatchBytes = MAX_APPEND_BATCH_BYTES_DEFAULT;
    private int maxInFlightAppends = MAX_IN_FLIGHT_APPENDS_DEFAULT;
    private boolean preVote = PRE_VOTE_DEFAULT;

    private Builder() {}

    public Builder electionTimeout(Duration value) {
      electionTimeout = Objects.requireNonNull(value, "electionTimeout");
      return this;
    }

    public Builder heartbeatInterval(Duration value) {
      heartbeatInterval = Objects.requireNonNull(value, "heartbeatInterval");
      return this;
    }

    public Builder requestTimeout(Duration value) {
      requestTimeout = Objects.requireNonNull(value, "requestTimeout");
      return this;
    }

    public Builder maxAppendBatchBytes(int value) {
      maxAppendBatchBytes = value;
      return this;
    }

    public Builder maxInFlightAppends(int value) {
      maxInFlightAppends = value;
      return this;
    }

    public Builder preVote(boolean value) {
      preVote = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the key, the bad value and the allowed range
     */
    public RaftConfig build() {
      requirePositiveMillis("electionTimeout", electionTimeout);
      requirePositiveMillis("heartbeatInterval", heartbeatInterval);
      requirePositiveMillis("requestTimeout", requestTimeout);
      if (heartbeatInterval.multipliedBy(2).compareTo(electionTimeout) > 0) {
        throw new IllegalArgumentException(
            "Expected heartbeatInterval to be at most half of electionTimeout, but heartbeatInterval="
                + heartbeatInterval
                + " and electionTimeout="
                + electionTimeout
                + " (raft config). Lower heartbeatInterval or raise electionTimeout.");
      }
      if (maxAppendBatchBytes < 1 || maxAppendBatchBytes > MAX_APPEND_BATCH_BYTES_LIMIT) {
        throw new IllegalArgumentException(
            "Expected maxAppendBatchBytes in [1, "
                + MAX_APPEND_BATCH_BYTES_LIMIT
                + "], but was "
                + maxAppendBatchBytes
                + " (raft config)");
      }
      if (maxInFlightAppends < 1 || maxInFlightAppends > MAX_IN_FLIGHT_APPENDS_LIMIT) {
        throw new IllegalArgumentException(
            "Expected maxInFlightAppends in [1, "
                + MAX_IN_FLIGHT_APPENDS_LIMIT
                + "], but was "
                + maxInFlightAppends
                + " (raft config)");
      }
      return new RaftConfig(this);
    }

    private static void requirePositiveMillis(String key, Duration value) {
      if (value.isNegative() || value.toMillis() < 1) {
        throw new IllegalArgumentException(
            "Expected " + key + " to be at least 1ms, but was " + value + " (raft config)");
      }
    }
  }
}
