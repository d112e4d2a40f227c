package io.cairn.journal;

/** A replicated record's checksum does not match its data. */
public final class InvalidChecksumException extends JournalException {
  public InvalidChecksumException(String message) {
    super(message);
  }
}
