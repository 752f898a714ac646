// Package kubernetes holds the manifests that place hostmcp on every node of
// a cluster; its tests decode them strictly into the Kubernetes API's own Go
// types and check what the safety of that placement rests on.
package kubernetes

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// manifestDirs are what an operator applies: this directory, and the
// ServiceMonitor for clusters that run the Prometheus operator.
var manifestDirs = []string{".", "prometheus-operator"}

// manifests are the decoded objects, at most one of each kind but Secret,
// which must not be here at all.
type manifests struct {
	Namespace      *corev1.Namespace
	ServiceAccount *corev1.ServiceAccount
	ConfigMap      *corev1.ConfigMap
	DaemonSet      *appsv1.DaemonSet
	Service        *corev1.Service
	ServiceMonitor *monitoringv1.ServiceMonitor
}

// decoder decodes a YAML or JSON document into the registered Go type its
// apiVersion and kind name, strictly: a field the type does not have (in
// any letter case), or one given twice, is an error, as the API server's
// strict field validation (kubectl apply --validate=strict) refuses it.
func decoder(t *testing.T) runtime.Decoder {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, monitoringv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}

// documents splits a YAML stream into its documents, leaving out those
// holding only comments.
func documents(t *testing.T, data []byte) [][]byte {
	t.Helper()
	var out [][]byte
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := yaml.Unmarshal(doc, &v); err != nil {
			t.Fatalf("not YAML: %v\n%s", err, doc)
		}
		if v != nil {
			out = append(out, doc)
		}
	}
}

// decodeStream decodes every document of a stream, in order.
func decodeStream(t *testing.T, name string, data []byte) []runtime.Object {
	t.Helper()
	dec := decoder(t)
	var out []runtime.Object
	for i, doc := range documents(t, data) {
		obj, gvk, err := dec.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("%s document %d: %v", name, i+1, err)
		}
		if obj.GetObjectKind().GroupVersionKind() != *gvk {
			t.Fatalf("%s document %d: decoded as %v, want %v", name, i+1, obj.GetObjectKind().GroupVersionKind(), gvk)
		}
		out = append(out, obj)
	}
	return out
}

// load decodes every manifest file and files each object by kind; a kind
// outside manifests, or one given twice, fails the test.
func load(t *testing.T) *manifests {
	t.Helper()
	var files []string
	for _, dir := range manifestDirs {
		for _, pattern := range []string{"*.yaml", "*.yml", "*.json"} {
			m, err := filepath.Glob(filepath.Join(dir, pattern))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, m...)
		}
	}
	slices.Sort(files)
	if len(files) == 0 {
		t.Fatal("no manifests")
	}
	m := &manifests{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range decodeStream(t, f, data) {
			m.add(t, f, obj)
		}
	}
	return m
}

func (m *manifests) add(t *testing.T, file string, obj runtime.Object) {
	t.Helper()
	twice := func(set bool) {
		if set {
			t.Fatalf("%s: a second %T", file, obj)
		}
	}
	switch o := obj.(type) {
	case *corev1.Namespace:
		twice(m.Namespace != nil)
		m.Namespace = o
	case *corev1.ServiceAccount:
		twice(m.ServiceAccount != nil)
		m.ServiceAccount = o
	case *corev1.ConfigMap:
		twice(m.ConfigMap != nil)
		m.ConfigMap = o
	case *appsv1.DaemonSet:
		twice(m.DaemonSet != nil)
		m.DaemonSet = o
	case *corev1.Service:
		twice(m.Service != nil)
		m.Service = o
	case *monitoringv1.ServiceMonitor:
		twice(m.ServiceMonitor != nil)
		m.ServiceMonitor = o
	case *corev1.Secret:
		t.Fatalf("%s: a Secret; the token must be created by the operator (README.md), never committed", file)
	default:
		t.Fatalf("%s: unexpected %T", file, obj)
	}
}

// TestManifestsDecodeStrictly: every document decodes into the official
// type of its kind, each kind the placement needs is there, and all but
// the Namespace live in it.
func TestManifestsDecodeStrictly(t *testing.T) {
	m := load(t)
	if m.Namespace == nil || m.ServiceAccount == nil || m.ConfigMap == nil || m.DaemonSet == nil || m.Service == nil || m.ServiceMonitor == nil {
		t.Fatalf("missing a kind: %+v", m)
	}
	ns := m.Namespace.Name
	for _, o := range []interface{ GetNamespace() string }{m.ServiceAccount, m.ConfigMap, m.DaemonSet, m.Service, m.ServiceMonitor} {
		if o.GetNamespace() != ns {
			t.Errorf("%T in namespace %q, want %q", o, o.GetNamespace(), ns)
		}
	}
}

// TestDecoderIsStrict: the decoder the tests rely on refuses what a lax one
// would drop in silence, so a misspelt safety setting cannot pass.
func TestDecoderIsStrict(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"unknown field", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n      hostPid: true\n"},
		{"misspelt nested field", "apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec:\n  clusterIp: None\n"},
		{"field given twice", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\ndata: {a: c}\n"},
		{"unknown field of the operator's type", "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: x}\nspec:\n  endpoints: [{port: http, bearerToken: abc}]\n"},
		{"unknown kind", "apiVersion: v1\nkind: Pdo\nmetadata: {name: x}\n"},
	}
	dec := decoder(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := dec.Decode([]byte(tc.doc), nil, nil); err == nil {
				t.Errorf("decoded:\n%s", tc.doc)
			}
		})
	}
}
