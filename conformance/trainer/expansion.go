package trainer

import (
	"encoding/json"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Expand replaces the `$(NAME)` references of a value as the kubelet does for a container's env,
// command and args: a name lookup resolves becomes its value, one it does not stays as written,
// and `$$` is a literal `$` (so `$$(NAME)` is the text `$(NAME)`).
func Expand(value string, lookup func(string) (string, bool)) string {
	var out strings.Builder
	for i := 0; i < len(value); i++ {
		if value[i] != '$' || i+1 == len(value) {
			out.WriteByte(value[i])
			continue
		}
		switch next := value[i+1]; next {
		case '$':
			out.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(value[i+2:], ')')
			if end < 0 {
				out.WriteString(value[i:])
				return out.String()
			}
			name := value[i+2 : i+2+end]
			if v, ok := lookup(name); ok {
				out.WriteString(v)
			} else {
				out.WriteString(value[i : i+3+end])
			}
			i += 2 + end
		default:
			out.WriteByte('$')
		}
	}
	return out.String()
}

// ExpandEnv is a container's environment as the kubelet builds it: entries in order, each
// literal value expanded against the entries before it (a later entry of the same name
// replaces an earlier one). Entries from a source (valueFrom) are left out: their value is known
// only on the node.
func ExpandEnv(env []corev1.EnvVar) map[string]string {
	defined := map[string]string{}
	for _, e := range env {
		if e.ValueFrom != nil {
			delete(defined, e.Name)
			continue
		}
		defined[e.Name] = Expand(e.Value, func(name string) (string, bool) { v, ok := defined[name]; return v, ok })
	}
	return defined
}

func compactJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(raw)
}
