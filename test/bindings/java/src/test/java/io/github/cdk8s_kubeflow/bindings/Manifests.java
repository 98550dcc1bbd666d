package io.github.cdk8s_kubeflow.bindings;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.Map;

/** Typed access to synthesized manifests (plain maps and lists), failing the test on a wrong shape. */
final class Manifests {
    private Manifests() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        assertInstanceOf(Map.class, value);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        assertInstanceOf(List.class, value);
        return (List<Object>) value;
    }

    /** The value at a path of keys; a missing key fails the test naming the path. */
    static Object at(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            current = map(current).get(key);
            assertNotNull(current, "missing " + String.join(".", path));
        }
        return current;
    }

    static int number(Object value) {
        assertInstanceOf(Number.class, value);
        return ((Number) value).intValue();
    }
}
