package io.cairn.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * One house style for what the formatter leaves alone: parameters and local variables (catch
 * parameters, loop and lambda variables included) carry no {@code final}, as in raft, journal and
 * snapshot. Whether a local is reassigned is visible in its few lines, and a lambda or inner class
 * still needs it effectively final; fields keep {@code final}, where it says something. The sources
 * of every module, main and test, are parsed (not compiled) with the JDK's compiler API.
 */
final class LocalModifiersTest {

  /** The word {@code final} where a declaration starts, after any annotations. */
  private static final Pattern WRITTEN_FINAL =
      Pattern.compile("(@[\\w.]+(\\([^)]*\\))?\\s+)*final\\b");

  @Test
  void parametersAndLocalsAreNotDeclaredFinal() throws IOException {
    List<Path> sources;
    try (Stream<Path> files = Files.walk(ModuleClasses.root())) {
      sources =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> p.toString().contains("/src/"))
              .filter(p -> !p.toString().contains("/target/"))
              .toList();
    }
    assertThat(sources).as("the project's Java sources").hasSizeGreaterThan(100);

    List<String> violations = new ArrayList<>();
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files =
        compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      for (int from = 0; from < sources.size(); from += 200) {
        violations.addAll(
            finalLocals(
                compiler,
                files.getJavaFileObjectsFromPaths(
                    sources.subList(from, Math.min(sources.size(), from + 200)))));
      }
    }
    assertThat(violations)
        .as(
            "parameters and locals declared final (drop the modifier; %s)",
            "docs/DESIGN.md §2, house style")
        .isEmpty();
  }

  /** The check finds what it forbids, and only that. */
  @Test
  void findsFinalParametersAndLocalsButNotFields() throws IOException {
    String source =
        """
        class Sample {
          private final int field = 1;
          void method(final int parameter, int plain) {
            final int local = parameter;
            for (final String each : java.util.List.of("a")) {}
            try { } catch (final RuntimeException e) { }
            java.util.function.IntUnaryOperator f = (final int x) -> x;
          }
        }
        """;
    JavaFileObject file =
        new SimpleJavaFileObject(URI.create("string:///Sample.java"), JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };

    List<String> found = finalLocals(ToolProvider.getSystemJavaCompiler(), List.of(file));

    assertThat(found)
        .containsExactly(
            "/Sample.java:3: parameter",
            "/Sample.java:4: local",
            "/Sample.java:5: each",
            "/Sample.java:6: e",
            "/Sample.java:7: x");
  }

  /** {@code <file>:<line>: <name>} of every parameter or local declared final in {@code units}. */
  private static List<String> finalLocals(
      JavaCompiler compiler, Iterable<? extends JavaFileObject> units) throws IOException {
    JavacTask task =
        (JavacTask) compiler.getTask(null, null, diagnostic -> {}, List.of(), null, units);
    SourcePositions positions = Trees.instance(task).getSourcePositions();
    List<String> found = new ArrayList<>();
    for (CompilationUnitTree unit : task.parse()) {
      LineMap lines = unit.getLineMap();
      String text = unit.getSourceFile().getCharContent(true).toString();
      new TreePathScanner<Void, Void>() {
        @Override
        public Void visitVariable(VariableTree variable, Void unused) {
          boolean field = getCurrentPath().getParentPath().getLeaf() instanceof ClassTree;
          long start = positions.getStartPosition(unit, variable);
          // try-with-resources variables are final without the word; only the written word counts
          if (!field
              && variable.getModifiers().getFlags().contains(Modifier.FINAL)
              && start >= 0
              && WRITTEN_FINAL.matcher(text).region((int) start, text.length()).lookingAt()) {
            found.add(
                relative(unit.getSourceFile().toUri())
                    + ":"
                    + lines.getLineNumber(start)
                    + ": "
                    + variable.getName());
          }
          return super.visitVariable(variable, unused);
        }
      }.scan(unit, null);
    }
    return found;
  }

  private static String relative(URI uri) {
    if (!"file".equals(uri.getScheme())) {
      return uri.getPath();
    }
    return ModuleClasses.root().relativize(Path.of(uri)).toString();
  }
}
