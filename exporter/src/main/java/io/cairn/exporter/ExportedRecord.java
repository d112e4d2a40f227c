package io.cairn.exporter;

import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.ValueType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One committed record of a partition, as exporters see it: immutable, shared by every exporter of
 * the partition.
 *
 * <p>{@link #value()} is the record's value as a map of its fields (names as in the protocol's
 * value records, e.g. {@code fromAccountId}; numbers as {@code Long}/{@code Integer}, byte arrays
 * as lower-case hex strings); {@link #toMap()} is the whole record in the shape the JSON-lines
 * exporter writes. {@link #record()} is the raw protocol record.
 */
public final class ExportedRecord {

  /** No position (nothing acknowledged yet). */
  public static final long NO_POSITION = RecordMetadata.NO_POSITION;

  private final int partitionId;
  private final Record record;
  private Map<String, Object> value;

  /**
   * @param partitionId the partition the record belongs to
   * @param record the committed record
   */
  public ExportedRecord(int partitionId, Record record) {
    this.partitionId = partitionId;
    this.record = Objects.requireNonNull(record, "record");
  }

  public int partitionId() {
    return partitionId;
  }

  /** The record's position in its partition; strictly increasing. */
  public long position() {
    return record.metadata().position();
  }

  /** The position of the command that caused this record, or {@link #NO_POSITION}. */
  public long sourcePosition() {
    return record.metadata().sourcePosition();
  }

  /** The key of the entity the record is about, or {@link RecordMetadata#NO_KEY}. */
  public long key() {
    return record.metadata().key();
  }

  /** Epoch milliseconds, or {@link RecordMetadata#NO_TIMESTAMP}. */
  public long timestamp() {
    return record.metadata().timestamp();
  }

  public RecordType recordType() {
    return record.metadata().recordType();
  }

  public ValueType valueType() {
    return record.metadata().valueType();
  }

  public Intent intent() {
    return record.metadata().intent();
  }

  /** {@link RejectionType#NONE} unless a rejection. */
  public RejectionType rejectionType() {
    return record.metadata().rejectionType();
  }

  /** Empty unless a rejection. */
  public String rejectionReason() {
    return record.metadata().rejectionReason();
  }

  /** The raw protocol record. */
  public Record record() {
    return record;
  }

  /** The value's fields, in declaration order; unmodifiable. */
  public Map<String, Object> value() {
    Map<String, Object> fields = value;
    if (fields == null) {
      fields = Collections.unmodifiableMap(fieldsOf(record.value()));
      value = fields;
    }
    return fields;
  }

  /**
   * The record as a map, in this order: {@code partitionId}, {@code position}, {@code
   * sourcePosition}, {@code key}, {@code timestamp}, {@code recordType}, {@code valueType}, {@code
   * intent}, then {@code rejectionType} and {@code rejectionReason} for rejections only, then
   * {@code value}.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("partitionId", partitionId);
    map.put("position", position());
    map.put("sourcePosition", sourcePosition());
    map.put("key", key());
    map.put("timestamp", timestamp());
    map.put("recordType", recordType().name());
    map.put("valueType", valueType().name());
    map.put("intent", intent().name());
    if (recordType() == RecordType.REJECTION) {
      map.put("rejectionType", rejectionType().name());
      map.put("rejectionReason", rejectionReason());
    }
    map.put("value", value());
    return map;
  }

  private static Map<String, Object> fieldsOf(RecordValue value) {
    Map<String, Object> fields = new LinkedHashMap<>();
    RecordComponent[] components = value.getClass().getRecordComponents();
    if (components == null) {
      throw new IllegalStateException(
          "Expected record values to be Java records, but " + value.getClass() + " is not");
    }
    for (RecordComponent component : components) {
      Object field;
      try {
        field = component.getAccessor().invoke(value);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException(
            "Expected to read " + component.getName() + " of " + value.getClass(), e);
      }
      fields.put(component.getName(), plain(field));
    }
    return fields;
  }

  private static Object plain(Object field) {
    if (field instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (field instanceof Enum<?> constant) {
      return constant.name();
    }
    return field;
  }

  @Override
  public String toString() {
    return "ExportedRecord{partition "
        + partitionId
        + ", position "
        + position()
        + ", "
        + recordType()
        + " "
        + valueType()
        + " "
        + intent().name()
        + "}";
  }
}
