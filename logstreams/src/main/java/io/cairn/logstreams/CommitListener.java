package io.cairn.logstreams;

/** Told when a {@link LogStream}'s commit position advances. */
@FunctionalInterface
public interface CommitListener {

  /**
   * Every record up to and including {@code commitPosition} is committed. Called on the thread that
   * advanced the commit; must not block.
   */
  void onCommit(long commitPosition);
}
