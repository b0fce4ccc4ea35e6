package io.tern.engine.workflow.model;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Checks a resource against {@link ModelLimits} in one streaming pass over its XML, before anything
 * parses it into a tree: the BPMN and DMN parsers and the transformer recurse once per level, so a
 * model nested thousands of levels deep would overflow the processor thread's stack in them. This
 * pass keeps no tree and does not recurse, so it reads any depth; it stops at the first element
 * beyond a limit. A DTD is refused, as no BPMN or DMN file needs one and its entities can expand
 * without bound or read the broker's files.
 */
public final class ResourceScan {
  private static final XMLInputFactory FACTORY = newFactory();

  private ResourceScan() {}

  /**
   * @throws DeploymentRejection naming the resource, the element, the limit and its key
   */
  public static void check(String resourceName, byte[] resource, ModelLimits limits) {
    XMLStreamReader reader = null;
    try {
      reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(resource));
      scan(resourceName, reader, limits);
    } catch (XMLStreamException e) {
      // Not well-formed up to here, and within the limits: the parser refuses it with its own
      // words, which name the file's kind ("not a valid BPMN file").
    } finally {
      close(reader);
    }
  }

  private static void close(XMLStreamReader reader) {
    if (reader != null) {
      try {
        reader.close();
      } catch (XMLStreamException e) {
        // nothing held but the byte array
      }
    }
  }

  private static void scan(String resourceName, XMLStreamReader reader, ModelLimits limits)
      throws XMLStreamException {
    // For each element being read, innermost first, the nearest one with an id (described; shared,
    // not copied, so this stays small): bounded by maxNestingDepth.
    Deque<String> open = new ArrayDeque<>();
    String process = null;
    int processDepth = -1;
    int elementsInProcess = 0;
    while (reader.hasNext()) {
      switch (reader.next()) {
        case XMLStreamConstants.START_ELEMENT -> {
          String id = reader.getAttributeValue(null, "id");
          String element = describe(reader.getLocalName(), id, open.peek());
          open.push(id != null || open.isEmpty() ? element : open.peek());
          if (open.size() > limits.maxNestingDepth()) {
            throw refused(
                resourceName,
                element
                    + " is nested "
                    + open.size()
                    + " levels deep; elements nest at most "
                    + limits.maxNestingDepth()
                    + " levels ("
                    + ModelLimits.NESTING_DEPTH_KEY
                    + ")");
          }
          if (process == null && "process".equals(reader.getLocalName())) {
            process = element;
            processDepth = open.size();
            elementsInProcess = 0;
          } else if (process != null && id != null) {
            elementsInProcess++;
            if (elementsInProcess > limits.maxElementsPerProcess()) {
              throw refused(
                  resourceName,
                  process
                      + " holds more than "
                      + limits.maxElementsPerProcess()
                      + " elements ("
                      + ModelLimits.ELEMENTS_PER_PROCESS_KEY
                      + "); "
                      + element
                      + " is one too many");
            }
          }
          for (int i = 0; i < reader.getAttributeCount(); i++) {
            checkExpression(resourceName, element, reader.getAttributeValue(i), limits);
          }
        }
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
          if (!reader.isWhiteSpace()) {
            checkExpression(resourceName, open.peek(), reader.getText(), limits);
          }
        }
        case XMLStreamConstants.END_ELEMENT -> {
          if (open.size() == processDepth) {
            process = null;
            processDepth = -1;
          }
          open.pop();
        }
        case XMLStreamConstants.DTD ->
            // Entities declared in a DTD expand without bound (a billion laughs) or read files.
            throw refused(
                resourceName,
                "it declares a DTD (<!DOCTYPE>); BPMN and DMN files need none, and Tern refuses"
                    + " them");
        default -> {
          // comments, processing instructions: nothing to check
        }
      }
    }
  }

  /**
   * Brackets nested deeper than this in one value are refused. The FEEL parser recurses once per
   * bracket and some 150 overflow a thread's stack, at a depth that depends on where it is called
   * from: a model accepted at deployment could then fail to parse on another leader. No expression
   * a person writes comes near it.
   */
  static final int MAX_BRACKET_DEPTH = 64;

  private static void checkExpression(
      String resourceName, String element, String value, ModelLimits limits) {
    int depth = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '(' || c == '[' || c == '{') {
        if (++depth > MAX_BRACKET_DEPTH) {
          throw refused(
              resourceName,
              element
                  + " has an expression with brackets nested more than "
                  + MAX_BRACKET_DEPTH
                  + " deep ('"
                  + value.strip().substring(0, Math.min(40, value.strip().length()))
                  + "...')");
        }
      } else if (c == ')' || c == ']' || c == '}') {
        depth = Math.max(0, depth - 1);
      }
    }
    if (value.length() <= limits.maxExpressionChars()) {
      return;
    }
    String text = value.strip();
    if (text.startsWith("=") && text.length() > limits.maxExpressionChars()) {
      throw refused(
          resourceName,
          element
              + " has an expression of "
              + text.length()
              + " characters ('"
              + text.substring(0, Math.min(40, text.length()))
              + "...'); expressions are at most "
              + limits.maxExpressionChars()
              + " characters long ("
              + ModelLimits.EXPRESSION_CHARS_KEY
              + ")");
    }
  }

  /** As {@link BpmnTransformer#describe}: "'id' (type)", or the nearest element with one. */
  private static String describe(String localName, String id, String parent) {
    if (id != null) {
      return "'" + abbreviate(id) + "' (" + localName + ")";
    }
    return parent == null ? "<" + localName + ">" : "<" + localName + "> in " + parent;
  }

  private static String abbreviate(String id) {
    return id.length() <= 80 ? id : id.substring(0, 80) + "...";
  }

  private static DeploymentRejection refused(String resourceName, String problem) {
    return new DeploymentRejection("'" + resourceName + "' cannot be deployed:\n- " + problem);
  }

  private static XMLInputFactory newFactory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    // Whole texts, so that an expression split across chunks is measured whole.
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    return factory;
  }
}
