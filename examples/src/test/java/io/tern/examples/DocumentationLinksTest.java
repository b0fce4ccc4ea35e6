package io.tern.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every reference in the README and the docs leads somewhere: a relative link to a file that
 * exists, and to a heading of it that exists; a repository path in a code span ({@code
 * docs/raft.md}, {@code docker/local-base.sh}) that exists; a test class a page cites as evidence
 * ({@code ClusterKillTest}) that exists. The same holds for the pages the code and scripts send a
 * user to ({@code --help}'s "see docs/configuration.md"). A page renamed or a heading reworded
 * fails here instead of in a user's browser.
 */
class DocumentationLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern LINK =
      Pattern.compile("\\[[^\\]\\n]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
  private static final Pattern TEST_CLASS = Pattern.compile("[A-Z][A-Za-z0-9]*Test");
  private static final Pattern DOCS_MENTION =
      Pattern.compile("(?<![\\w/.-])docs/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md(#[a-z0-9_-]+)?");

  @Test
  void everyLinkAndReferenceOfTheReadmeAndTheDocsLeadsSomewhere() throws IOException {
    List<String> broken = new ArrayList<>();
    Set<String> testClasses = testClasses();
    List<Path> pages = pages();
    assertThat(pages).contains(ROOT.resolve("README.md"), ROOT.resolve("docs/operations.md"));
    for (Path page : pages) {
      String text = withoutFencedBlocks(Files.readString(page));
      String where = ROOT.relativize(page).toString();
      Matcher link = LINK.matcher(text);
      while (link.find()) {
        check(where, page.getParent(), link.group(1), broken);
      }
      Matcher span = CODE_SPAN.matcher(text);
      while (span.find()) {
        String code = span.group(1).strip();
        if (isRepositoryPath(code)) {
          check(where, ROOT, stripTrailingPunctuation(code), broken);
        } else if (TEST_CLASS.matcher(code).matches() && !testClasses.contains(code)) {
          broken.add(where + ": `" + code + "` names no test class");
        }
      }
    }
    assertThat(broken).as("references that lead nowhere").isEmpty();
  }

  @Test
  void thePagesTheCodeAndScriptsNameExist() throws IOException {
    List<String> broken = new ArrayList<>();
    List<Path> sources = new ArrayList<>();
    for (String tree :
        List.of(
            "journal/src/main",
            "raft/src/main",
            "engine/src/main",
            "benchmark/src/main",
            "examples/src/main",
            "docker",
            "charts",
            ".ci")) {
      Path dir = ROOT.resolve(tree);
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.walk(dir)) {
          files.filter(Files::isRegularFile).forEach(sources::add);
        }
      }
    }
    assertThat(sources).contains(ROOT.resolve("engine/src/main/dist/bin/broker"));
    int mentions = 0;
    for (Path source : sources) {
      String text;
      try {
        text = Files.readString(source);
      } catch (java.nio.charset.MalformedInputException binary) {
        continue;
      }
      Matcher mention = DOCS_MENTION.matcher(text);
      while (mention.find()) {
        mentions++;
        check(ROOT.relativize(source).toString(), ROOT, mention.group(), broken);
      }
      if (text.contains("the README's configuration reference")) {
        broken.add(ROOT.relativize(source) + ": the README has no configuration reference");
      }
    }
    assertThat(mentions)
        .as("the code names some pages (the usage's docs/configuration.md)")
        .isPositive();
    assertThat(broken).as("pages the code sends users to that are not there").isEmpty();
  }

  /** README.md, docs/ and any README.md of a folder, outside build output. */
  private static List<Path> pages() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files
          .filter(path -> path.toString().endsWith(".md"))
          .filter(path -> !isBuildOutput(path))
          .filter(
              path ->
                  path.startsWith(ROOT.resolve("docs"))
                      || path.getFileName().toString().equals("README.md"))
          .sorted()
          .toList();
    }
  }

  private static boolean isBuildOutput(Path path) {
    for (Path part : ROOT.relativize(path)) {
      String name = part.toString();
      if (name.equals("target") || name.equals("node_modules") || name.startsWith(".git")) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> testClasses() throws IOException {
    Set<String> names = new HashSet<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      files
          .filter(path -> path.toString().endsWith(".java"))
          .filter(path -> path.toString().contains("/src/test/java/"))
          .filter(path -> !isBuildOutput(path))
          .forEach(path -> names.add(path.getFileName().toString().replace(".java", "")));
    }
    return names;
  }

  /** A path whose first part is a file or folder at the repository's root, e.g. docker/bin. */
  private static boolean isRepositoryPath(String code) {
    if (!code.contains("/") || code.contains(" ") || code.contains("...")) {
      return false;
    }
    if (code.chars().anyMatch(c -> "*<>{}$=|[]()\"',".indexOf(c) >= 0)) {
      return false; // a pattern, a placeholder or a command, not a path
    }
    String first = code.substring(0, code.indexOf('/'));
    if (first.isEmpty() || first.equals(".") || first.equals("..")) {
      return false;
    }
    for (String part : code.split("/")) {
      if (part.equals("target")) {
        return false; // made by the build, absent from a clean clone
      }
    }
    return Files.exists(ROOT.resolve(first));
  }

  private static String stripTrailingPunctuation(String code) {
    return code.replaceAll("[:.;]+$", "");
  }

  /** Checks {@code target} (a path with an optional #anchor) relative to {@code base}. */
  private static void check(String where, Path base, String target, List<String> broken)
      throws IOException {
    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return; // https:, mailto: and the like: not this repository's
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path file = path.isEmpty() ? null : base.resolve(path).normalize();
    if (file != null && !Files.exists(file)) {
      broken.add(where + ": " + target + " (no " + ROOT.relativize(file) + ")");
      return;
    }
    if (anchor == null || anchor.isEmpty()) {
      return;
    }
    Path page = file != null ? file : null;
    if (page == null) {
      page = ROOT.resolve(where);
    }
    if (!page.toString().endsWith(".md")) {
      return; // an anchor into source code is a line number, not checked
    }
    if (!anchors(page).contains(anchor)) {
      broken.add(
          where + ": " + target + " (no heading #" + anchor + " in " + ROOT.relativize(page) + ")");
    }
  }

  /** The anchors GitHub makes for a page's headings, and explicit {@code <a name>} ones. */
  static Set<String> anchors(Path page) throws IOException {
    String text = withoutFencedBlocks(Files.readString(page));
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher heading = HEADING.matcher(text);
    while (heading.find()) {
      String slug = slug(heading.group(1));
      int count = seen.merge(slug, 1, Integer::sum);
      anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
    }
    Matcher html = HTML_ANCHOR.matcher(text);
    while (html.find()) {
      anchors.add(html.group(1));
    }
    return anchors;
  }

  /**
   * GitHub's heading anchor: the heading's text (links as their text, without the code marks),
   * lower case, without punctuation but hyphens and underscores, spaces as hyphens.
   */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
    StringBuilder slug = new StringBuilder();
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        slug.appendCodePoint(Character.toLowerCase(c));
      } else if (c == ' ') {
        slug.append('-');
      }
      i += Character.charCount(c);
    }
    return slug.toString().toLowerCase(Locale.ROOT);
  }

  /** The text without its ``` blocks, whose brackets and paths are code, not references. */
  private static String withoutFencedBlocks(String markdown) {
    StringBuilder text = new StringBuilder();
    boolean inBlock = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        inBlock = !inBlock;
        text.append('\n');
        continue;
      }
      text.append(inBlock ? "" : line).append('\n');
    }
    return text.toString();
  }
}
