package io.cairn.journal;

/** A replicated record's index is not the next index of the journal. */
public final class InvalidIndexException extends JournalException {
  public InvalidIndexException(String message) {
    super(message);
  }
}
