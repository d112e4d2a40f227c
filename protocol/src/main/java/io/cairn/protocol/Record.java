package io.cairn.protocol;

import java.util.Objects;

/** A log record: metadata and a value of the metadata's value type. */
public record Record(RecordMetadata metadata, RecordValue value) {

  /**
   * @throws IllegalArgumentException if the value's type is not the metadata's
   */
  public Record {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(value, "value");
    if (value.valueType() != metadata.valueType()) {
      throw new IllegalArgumentException(
          "Expected a value of type "
              + metadata.valueType()
              + " (intent "
              + metadata.intent().name()
              + "), but was "
              + value.valueType());
    }
  }

  /** Shorthand for {@code metadata().position()}. */
  public long position() {
    return metadata.position();
  }
}
