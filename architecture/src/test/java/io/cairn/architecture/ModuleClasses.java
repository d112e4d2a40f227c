package io.cairn.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The main classes of each module, read from {@code <root>/<module>/target/classes} (what the
 * module's build compiled, generated sources included; never its tests). Reading folders rather
 * than the class path tells the modules apart by where a class was built, and keeps the shaded
 * benchmarks jar (a copy of everything) out.
 */
final class ModuleClasses {

  private static final Map<String, JavaClasses> CACHE = new ConcurrentHashMap<>();

  private ModuleClasses() {}

  /** The reactor root: {@code cairn.root} (set by the pom), else the parent of the working dir. */
  static Path root() {
    String property = System.getProperty("cairn.root");
    Path root =
        property != null && !property.isBlank()
            ? Path.of(property)
            : Path.of("").toAbsolutePath().getParent();
    return root.toAbsolutePath().normalize();
  }

  /** Whether the module has main code to check (sources or .proto files). */
  static boolean hasMainCode(String module) {
    Path main = root().resolve(module).resolve("src/main");
    return Files.isDirectory(main.resolve("java")) || Files.isDirectory(main.resolve("proto"));
  }

  /**
   * The module's compiled main classes.
   *
   * @throws AssertionError if the module has main code but no {@code target/classes}: build it
   *     first ({@code mvn -pl architecture -am verify} does)
   */
  static JavaClasses of(String module) {
    return CACHE.computeIfAbsent(
        module,
        name -> {
          Path classes = root().resolve(name).resolve("target/classes");
          assertThat(classes)
              .as("compiled classes of module %s (build it first: -am)", name)
              .isDirectory();
          return new ClassFileImporter().importPath(classes);
        });
  }
}
