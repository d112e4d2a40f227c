package io.cairn.streamprocessor;

/** What a stream processor is started for; a role change means a new stream processor. */
public enum StreamProcessorMode {
  /**
   * The partition's leader: replay every record already in the log (up to the log's last written
   * position when it starts), then process commands.
   */
  LEADER,
  /** A follower, or a scratch rebuild: replay events only, for as long as it runs. */
  FOLLOWER
}
