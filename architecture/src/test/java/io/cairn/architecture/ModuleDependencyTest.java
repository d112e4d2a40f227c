package io.cairn.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import io.cairn.architecture.Modules.Module;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module rules of docs/DESIGN.md §2: a module's main classes use only its own package tree, the
 * packages of the modules §2 lists for it, the JDK and third-party libraries. The table they are
 * checked against is {@link Modules}; the first three tests keep it equal to §2 and to the poms,
 * the last applies it to every module's classes.
 */
final class ModuleDependencyTest {

  /** A row of a Markdown table whose first cell is a back-quoted name. */
  private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z0-9-]+)`\\s*\\|(.*)\\|\\s*$");

  /** §2's rows that are not Maven modules. */
  private static final Set<String> NOT_MODULES = Set.of("docs");

  @Test
  void shouldHaveARowForEveryModuleOfTheRootPomAndNoOther() throws Exception {
    Document pom = parse(ModuleClasses.root().resolve("pom.xml"));
    Set<String> reactor = new TreeSet<>();
    NodeList modules = pom.getElementsByTagName("module");
    for (int i = 0; i < modules.getLength(); i++) {
      reactor.add(modules.item(i).getTextContent().trim());
    }

    assertThat(names(Modules.all())).isEqualTo(reactor);
  }

  @Test
  void shouldBeTheTableOfDesignSection2() throws IOException {
    Map<String, Set<String>> design = designSection2();
    NOT_MODULES.forEach(design::remove);

    assertThat(differences("docs/DESIGN.md §2", design))
        .as("docs/DESIGN.md §2 against Modules (its copy in code)")
        .isEmpty();
  }

  @Test
  void shouldAllowExactlyTheProjectModulesEachPomDeclares() throws Exception {
    Map<String, Set<String>> poms = new LinkedHashMap<>();
    for (Module module : Modules.all()) {
      poms.put(module.name(), declaredModules(module.name()));
    }

    assertThat(differences("the pom", poms))
        .as("each pom's io.cairn dependencies outside test scope against Modules")
        .isEmpty();
  }

  /** One line per module on which {@code other} and {@link Modules} disagree. */
  private static List<String> differences(String source, Map<String, Set<String>> other) {
    List<String> differences = new ArrayList<>();
    Set<String> names = new TreeSet<>(other.keySet());
    names.addAll(names(Modules.all()));
    for (String name : names) {
      if (!other.containsKey(name)) {
        differences.add(name + ": in Modules, not in " + source);
        continue;
      }
      if (Modules.all().stream().noneMatch(m -> m.name().equals(name))) {
        differences.add(name + ": in " + source + ", not in Modules");
        continue;
      }
      Set<String> table = Modules.named(name).allowed();
      Set<String> onlyThere = new TreeSet<>(other.get(name));
      onlyThere.removeAll(table);
      Set<String> onlyInTable = new TreeSet<>(table);
      onlyInTable.removeAll(other.get(name));
      if (!onlyThere.isEmpty() || !onlyInTable.isEmpty()) {
        differences.add(
            name + ": only in " + source + " " + onlyThere + ", only in Modules " + onlyInTable);
      }
    }
    return differences;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modulesWithMainCode")
  void shouldUseOnlyTheModulesDesignSection2Allows(String name) {
    Module module = Modules.named(name);
    ArchRule rule =
        noClasses()
            .should()
            .dependOnClassesThat(inAModuleNotAllowedFor(module))
            .because("docs/DESIGN.md §2 lists what each module depends on")
            .allowEmptyShould(true);

    rule.check(ModuleClasses.of(name));
  }

  static Stream<String> modulesWithMainCode() {
    return Modules.all().stream().map(Module::name).filter(ModuleClasses::hasMainCode);
  }

  private static DescribedPredicate<JavaClass> inAModuleNotAllowedFor(Module module) {
    return DescribedPredicate.describe(
        "belong to a module other than "
            + module.name()
            + " and the ones it may use "
            + new TreeSet<>(module.allowed()),
        target ->
            Modules.owning(target.getPackageName())
                .filter(owner -> !owner.name().equals(module.name()))
                .filter(owner -> !module.allowed().contains(owner.name()))
                .isPresent());
  }

  /** §2's rows: module → the modules of its "depends on" column (the last cell). */
  static Map<String, Set<String>> designSection2() throws IOException {
    List<String> lines = Files.readAllLines(ModuleClasses.root().resolve("docs/DESIGN.md"));
    Map<String, Set<String>> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : lines) {
      if (line.startsWith("## ")) {
        inSection = line.startsWith("## 2. ");
        continue;
      }
      Matcher row = ROW.matcher(line);
      if (inSection && row.matches()) {
        String[] cells = row.group(2).split("\\|");
        rows.put(row.group(1), dependsOn(cells[cells.length - 1]));
      }
    }
    assertThat(rows).as("rows of docs/DESIGN.md §2").isNotEmpty();
    return rows;
  }

  /**
   * "journal, transport (its interface), scheduler" → {journal, scheduler, transport}; "—" → {}.
   */
  private static Set<String> dependsOn(String cell) {
    String names = cell.replaceAll("\\([^)]*\\)", "").replace("`", "").trim();
    if (names.equals("—") || names.isEmpty()) {
      return new TreeSet<>();
    }
    return Arrays.stream(names.split(","))
        .map(String::trim)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The cairn-* artifacts the module's pom declares, test scope and test-jars left out. */
  private static Set<String> declaredModules(String module) throws Exception {
    Document pom = parse(ModuleClasses.root().resolve(module).resolve("pom.xml"));
    Set<String> declared = new TreeSet<>();
    Element project = pom.getDocumentElement();
    for (Node dependencies = project.getFirstChild();
        dependencies != null;
        dependencies = dependencies.getNextSibling()) {
      if (!"dependencies".equals(dependencies.getNodeName())) {
        continue; // dependencyManagement and plugin dependencies are not the module's
      }
      NodeList list = ((Element) dependencies).getElementsByTagName("dependency");
      for (int i = 0; i < list.getLength(); i++) {
        Element dependency = (Element) list.item(i);
        String groupId = text(dependency, "groupId");
        String artifactId = text(dependency, "artifactId");
        if ("io.cairn".equals(groupId)
            && artifactId.startsWith("cairn-")
            && !"test".equals(text(dependency, "scope"))
            && !"test-jar".equals(text(dependency, "type"))) {
          declared.add(artifactId.substring("cairn-".length()));
        }
      }
    }
    return declared;
  }

  private static String text(Element parent, String child) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (child.equals(node.getNodeName())) {
        return node.getTextContent().trim();
      }
    }
    return "";
  }

  private static Document parse(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
  }

  private static Set<String> names(List<Module> modules) {
    return modules.stream().map(Module::name).collect(Collectors.toCollection(TreeSet::new));
  }
}
