package io.cairn.streamprocessor;

import io.cairn.protocol.Intent;
import io.cairn.protocol.ValueType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the stream processor runs, by record kind: one {@link CommandProcessor} per command {@code
 * (ValueType, Intent)}, one {@link EventApplier} per event {@code (ValueType, Intent)}, and {@link
 * CommandInterceptor}s that run before every processor. Engine and non-engine records (checkpoints)
 * plug in the same way; each module registers its own kinds on the same builder. Immutable.
 *
 * <p>A command without a processor is rejected with {@code PROCESSING_ERROR}; an event without an
 * applier fails the partition (register {@link EventApplier#NONE} for events that change nothing).
 */
public final class RecordProcessors {

  private final Map<Intent, CommandProcessor> processors;
  private final Map<Intent, EventApplier> appliers;
  private final List<CommandInterceptor> interceptors;

  private RecordProcessors(Builder builder) {
    processors = Map.copyOf(builder.processors);
    appliers = Map.copyOf(builder.appliers);
    interceptors = List.copyOf(builder.interceptors);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The processor of a command intent, or null if none is registered. */
  public CommandProcessor processor(Intent commandIntent) {
    return processors.get(commandIntent);
  }

  /** The applier of an event intent, or null if none is registered. */
  public EventApplier applier(Intent eventIntent) {
    return appliers.get(eventIntent);
  }

  /** The interceptors, in registration order. */
  public List<CommandInterceptor> interceptors() {
    return interceptors;
  }

  /** Registers processors, appliers and interceptors; each kind at most once. */
  public static final class Builder {
    private final Map<Intent, CommandProcessor> processors = new HashMap<>();
    private final Map<Intent, EventApplier> appliers = new HashMap<>();
    private final List<CommandInterceptor> interceptors = new ArrayList<>();

    private Builder() {}

    /**
     * Registers the processor of commands {@code (valueType, intent)}.
     *
     * @throws IllegalArgumentException if the intent is not a command intent of {@code valueType},
     *     or a processor is registered for it already
     */
    public Builder processor(ValueType valueType, Intent intent, CommandProcessor processor) {
      check(valueType, intent, false, "processor");
      put(processors, intent, Objects.requireNonNull(processor, "processor"), "processor");
      return this;
    }

    /** {@link #processor(ValueType, Intent, CommandProcessor)} with the intent's value type. */
    public Builder processor(Intent intent, CommandProcessor processor) {
      return processor(intent.valueType(), intent, processor);
    }

    /**
     * Registers the applier of events {@code (valueType, intent)}.
     *
     * @throws IllegalArgumentException if the intent is not an event intent of {@code valueType},
     *     or an applier is registered for it already
     */
    public Builder applier(ValueType valueType, Intent intent, EventApplier applier) {
      check(valueType, intent, true, "applier");
      put(appliers, intent, Objects.requireNonNull(applier, "applier"), "applier");
      return this;
    }

    /** {@link #applier(ValueType, Intent, EventApplier)} with the intent's value type. */
    public Builder applier(Intent intent, EventApplier applier) {
      return applier(intent.valueType(), intent, applier);
    }

    /** Adds an interceptor; interceptors run in the order they were added. */
    public Builder interceptor(CommandInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    public RecordProcessors build() {
      return new RecordProcessors(this);
    }

    private static void check(ValueType valueType, Intent intent, boolean event, String what) {
      Objects.requireNonNull(valueType, "valueType");
      Objects.requireNonNull(intent, "intent");
      if (intent.valueType() != valueType) {
        throw new IllegalArgumentException(
            "Expected an intent of "
                + valueType
                + ", but "
                + intent.name()
                + " belongs to "
                + intent.valueType()
                + " (registering "
                + withArticle(what)
                + ")");
      }
      if (intent.isEvent() != event) {
        throw new IllegalArgumentException(
            "Expected "
                + (event ? "an event" : "a command")
                + " intent for "
                + withArticle(what)
                + ", but "
                + valueType
                + " "
                + intent.name()
                + " is "
                + (intent.isEvent() ? "an event" : "a command"));
      }
    }

    private static String withArticle(String what) {
      return (what.startsWith("a") ? "an " : "a ") + what;
    }

    private static <T> void put(Map<Intent, T> map, Intent intent, T value, String what) {
      if (map.putIfAbsent(intent, value) != null) {
        throw new IllegalArgumentException(
            "Expected one "
                + what
                + " per kind, but "
                + intent.valueType()
                + " "
                + intent.name()
                + " has one already");
      }
    }
  }
}
