package io.cairn.broker.exporting;

import io.cairn.exporter.Exporter;
import io.cairn.exporter.jsonl.JsonLinesExporter;
import io.cairn.exporter.jsonl.JsonLinesExporterConfig;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One configured exporter ({@code exporters[]} in the broker's file): its id, what it is (a
 * built-in {@code type} or a {@code className} on the class path) and its {@code args}.
 *
 * @param id unique among the broker's exporters; its acknowledged positions are stored under it
 * @param type a built-in type ({@value JsonLinesExporter#TYPE}), or {@code null}
 * @param className a class implementing {@link Exporter} with a public no-argument constructor, or
 *     {@code null}; exactly one of {@code type} and {@code className} is set
 * @param args the exporter's arguments, names case-insensitive
 */
public record ExporterDescriptor(
    String id, String type, String className, Map<String, String> args) {

  /** The built-in types. */
  public static final List<String> TYPES = List.of(JsonLinesExporter.TYPE);

  public ExporterDescriptor {
    Objects.requireNonNull(id, "id");
    Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    copy.putAll(args);
    args = Collections.unmodifiableMap(copy);
    List<String> problems = problems(type, className, args);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems) + " (exporter '" + id + "')");
    }
  }

  /** A JSON-lines exporter. */
  public static ExporterDescriptor jsonLines(String id, Map<String, String> args) {
    return new ExporterDescriptor(id, JsonLinesExporter.TYPE, null, args);
  }

  /**
   * What is wrong with this combination: both or neither of type and class, an unknown type, a
   * class that cannot be loaded or instantiated, or arguments a built-in type rejects.
   */
  public static List<String> problems(String type, String className, Map<String, String> args) {
    List<String> problems = new ArrayList<>();
    if ((type == null) == (className == null)) {
      problems.add(
          "Expected exactly one of type and className, but "
              + (type == null ? "neither is set" : "both are set")
              + ". Use type: "
              + String.join(" or ", TYPES)
              + " for a built-in exporter");
      return problems;
    }
    if (type != null) {
      if (!TYPES.contains(type)) {
        problems.add("Expected type to be one of " + TYPES + ", but was '" + type + "'");
      } else {
        try {
          JsonLinesExporterConfig.fromArguments(args);
        } catch (IllegalArgumentException e) {
          problems.add(e.getMessage());
        }
      }
      return problems;
    }
    if (loadClass(className).isEmpty()) {
      problems.add(classProblem(className));
    }
    return problems;
  }

  private static Optional<Class<? extends Exporter>> loadClass(String className) {
    try {
      Class<?> loaded = Class.forName(className, false, ExporterDescriptor.class.getClassLoader());
      if (!Exporter.class.isAssignableFrom(loaded)
          || Modifier.isAbstract(loaded.getModifiers())
          || !Modifier.isPublic(loaded.getConstructor().getModifiers())) {
        return Optional.empty();
      }
      return Optional.of(loaded.asSubclass(Exporter.class));
    } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
      return Optional.empty();
    }
  }

  private static String classProblem(String className) {
    return "Expected className to name a public, concrete class implementing "
        + Exporter.class.getName()
        + " with a public no-argument constructor, on the broker's class path, but '"
        + className
        + "' is not one";
  }

  /**
   * A new, unopened exporter (the broker makes one per partition and leadership).
   *
   * @throws IllegalStateException if the class cannot be instantiated (its constructor threw)
   */
  public Exporter newExporter() {
    if (type != null) {
      return new JsonLinesExporter();
    }
    Class<? extends Exporter> loaded =
        loadClass(className).orElseThrow(() -> new IllegalStateException(classProblem(className)));
    try {
      return loaded.getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          "Expected to create exporter '" + id + "', but its constructor threw", e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Expected to create exporter '" + id + "'", e);
    }
  }

  /** Type or class, for logs. */
  public String kind() {
    return type != null ? "type " + type : "class " + className;
  }
}
