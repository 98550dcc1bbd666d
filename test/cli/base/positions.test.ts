/**
 * `lint` places every finding at the field it judges: line and column of the key (or list item)
 * in the file, the parent's when the field is not written. The inputs are written by hand so that
 * each expected position can be read off the text.
 */
import { INJECTED_ENV, LABEL_VALUE, PINNED_CRD_FIELDS } from '../../harness/messages';
import { runCli } from '../run-cli';

const lines = (text: string) => text.split('\n').filter(l => l !== '');

/** Line numbers are in the comments; `col` counts from 1. */
const MULTI_DOCUMENT = [
  '# jobs of team vision', //                                1
  '---', //                                                  2
  'apiVersion: v1', //                                       3
  'kind: ConfigMap', //                                      4
  'metadata: {name: settings, namespace: ml}', //            5
  '---', //                                                  6
  'apiVersion: kubeflow.org/v1', //                          7
  'kind: PyTorchJob', //                                     8
  'metadata:', //                                            9
  '  name: train', //                                        10
  '  namespace: ml', //                                      11
  '  labels:', //                                            12
  '    team: vision team', //                                13 label value with a space: col 5
  'spec:', //                                                14
  '  pytorchReplicaSpecs:', //                               15
  '    Master:', //                                          16
  '      replicas: 1', //                                    17
  '      template:', //                                      18
  '        spec:', //                                        19
  '          containers:', //                                20
  '            - name: pytorch', //                          21
  '              image: registry.example/train:1.0', //      22
  '    Worker:', //                                          23
  '      replicas: 2', //                                    24
  '      template:', //                                      25
  '        spec:', //                                        26
  '          containers:', //                                27
  '            - name: sidecar', //                          28
  '              image: registry.example/log:1.0', //        29
  '            - name: pytorch', //                          30 the second item: col 15 is its first key
  '              image: registry.example/train:1.0', //      31
  '              env:', //                                   32
  '                - name: LOG_LEVEL', //                    33
  '                  value: debug', //                       34
  '                - {name: WORLD_SIZE, value: "3"}', //     35 a flow mapping in a nested list: col 19
  '...', //                                                  36
  'apiVersion: kubeflow.org/v1', //                          37
  'kind: TFJob', //                                          38
  'metadata: {name: mnist, namespace: ml}', //               39
  'spec:', //                                                40
  '  tfReplicaSpecs: {Worker: {replica: 2, template: {spec: {containers: [{name: tensorflow, image: tf}]}}}}', // 41 a flow mapping: `replica` at col 29
  '', //
].join('\n');

describe('line and column of each finding', () => {
  const result = runCli(['lint', '-'], MULTI_DOCUMENT);

  test('in a multi-document file: each document\'s findings at their own lines (after a comment, a ConfigMap and a `...` end marker)', () => {
    expect(lines(result.stdout)).toEqual([
      `<stdin>:13:5: PyTorchJob ml/train: metadata.labels.team is "vision team"; ${LABEL_VALUE} [kubernetes/label-value]`,
      `<stdin>:35:19: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE] is {"name":"WORLD_SIZE","value":"3"}; ${INJECTED_ENV} [training-operator/injected-env]`,
      `<stdin>:41:29: TFJob ml/mnist: spec.tfReplicaSpecs.Worker.replica is 2; ${PINNED_CRD_FIELDS} (did you mean "replicas"?) [library/schema]`,
      '2 documents checked, 1 skipped (kinds not known: ConfigMap); 3 findings',
    ]);
    expect(result.status).toBe(1);
  });

  test('json has the column too', () => {
    const json = JSON.parse(runCli(['lint', '--format', 'json', '-'], MULTI_DOCUMENT).stdout);
    expect(json.findings.map((f: any) => [f.line, f.column, f.rule])).toEqual([
      [13, 5, 'kubernetes/label-value'],
      [35, 19, 'training-operator/injected-env'],
      [41, 29, 'library/schema'],
    ]);
  });
});

test('a list item found by index: the item\'s first character', () => {
  const text = [
    'apiVersion: kubeflow.org/v1', //                  1
    'kind: PyTorchJob', //                             2
    'metadata: {name: train, namespace: ml}', //       3
    'spec:', //                                        4
    '  pytorchReplicaSpecs:', //                       5
    '    Master:', //                                  6
    '      replicas: 1', //                            7
    '      template:', //                              8
    '        spec:', //                                9
    '          containers:', //                        10
    '          - name: pytorch', //                    11
    '            image: registry.example/train:1.0', // 12
    '            ports:', //                           13
    '            - containerPort: 23456', //           14
    '            - containerPort: seventy', //         15 the second port: col 15
    '    Worker:', //                                  16
    '      replicas: 1', //                            17
    '      template: {spec: {containers: [{name: pytorch, image: registry.example/train:1.0}]}}', // 18
  ].join('\n');
  expect(lines(runCli(['lint', '-'], text).stdout)[0])
    .toBe('<stdin>:15:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.template.spec.containers[0].ports[1].containerPort is "seventy"; expected a value of type integer [library/schema]');
});

test('a field that is not written: its parent\'s position (a Master without replicas, at `Master`)', () => {
  const text = [
    'apiVersion: kubeflow.org/v1', //                 1
    'kind: PyTorchJob', //                            2
    'metadata:', //                                   3
    '  name: train', //                               4
    '  namespace: ml', //                             5
    'spec:', //                                       6
    '  pytorchReplicaSpecs:', //                      7
    '    Master:', //                                 8 col 5
    '      template: {spec: {containers: [{name: pytorch, image: registry.example/train:1.0}]}}', // 9
    '    Worker:', //                                 10
    '      replicas: 2', //                           11
    '      template: {spec: {containers: [{name: pytorch, image: registry.example/train:1.0}]}}', // 12
  ].join('\n');
  expect(lines(runCli(['lint', '-'], text).stdout)[0])
    .toBe('<stdin>:8:5: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.replicas is not set; expected 1; a PyTorchJob has one Master, written with replicas: 1, which the operator makes rank 0 [training-operator/replica-count]');
});

test('a key with dots (a label key) is matched whole', () => {
  const text = [
    'apiVersion: kubeflow.org/v1', //                 1
    'kind: PyTorchJob', //                            2
    'metadata:', //                                   3
    '  name: train', //                               4
    '  namespace: ml', //                             5
    '  labels:', //                                   6
    '    app.kubernetes.io/name: 7', //               7 a number, not a string: col 5
    'spec:', //                                       8
    '  pytorchReplicaSpecs:', //                      9
    '    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: i}]}}}', // 10
  ].join('\n');
  expect(lines(runCli(['lint', '-'], text).stdout)[0])
    .toBe('<stdin>:7:5: PyTorchJob ml/train: metadata.labels["app.kubernetes.io/name"] is 7; expected a value of type string [library/schema]');
});

test('--format github annotates the line and column of each of two mistakes', () => {
  const text = [
    'apiVersion: kubeflow.org/v1', //                 1
    'kind: MPIJob', //                                2
    'metadata:', //                                   3
    '  name: hvd', //                                 4
    '  namespace: ml', //                             5
    'spec:', //                                       6
    '  slotsPerWorker: 1', //                         7
    '  mpiReplicaSpecs:', //                          8
    '    Launcher:', //                               9
    '      replicas: 1', //                           10
    '      template:', //                             11
    '        spec:', //                               12
    '          containers:', //                       13
    '            - name: mpi', //                     14
    '              image: registry.example/hvd:1.0', // 15
    '              command: [mpirun, -np, "8", python, train.py]', // 16 mistake 1: col 15
    '    Worker:', //                                 17
    '      replicas: 2', //                           18
    '      template:', //                             19
    '        spec:', //                               20
    '          restartPolicy: Sometimes', //          21 mistake 2: col 11
    '          containers:', //                       22
    '            - name: mpi', //                     23
    '              image: registry.example/hvd:1.0', // 24
  ].join('\n');
  const result = runCli(['lint', '--format', 'github', '-'], text);
  expect(lines(result.stdout)).toEqual([
    '::error file=<stdin>,line=21,col=11,title=kubernetes/restart-policy (MPIJob ml/hvd)::MPIJob ml/hvd: spec.mpiReplicaSpecs.Worker.template.spec.restartPolicy is "Sometimes"; expected "Always", "OnFailure" or "Never"',
    '::error file=<stdin>,line=16,col=15,title=training-operator/mpi-np (MPIJob ml/hvd)::MPIJob ml/hvd: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].command is "-np 8"; expected at most 2 processes (2 workers x 1 slotsPerWorker); mpirun cannot start more processes than the hostfile has slots (add --oversubscribe if that is meant)',
    '1 document checked; 2 findings',
  ]);
  expect(result.status).toBe(1);
});

test('a kind: List: the item\'s own field, not the first item\'s', () => {
  const item = (name: string, replicas: number) => [
    '  - apiVersion: kubeflow.org/v1',
    '    kind: XGBoostJob',
    `    metadata: {name: ${name}, namespace: ml}`,
    '    spec:',
    '      xgbReplicaSpecs:',
    '        Master:',
    `          replicas: ${replicas}`,
    '          template: {spec: {containers: [{name: xgboost, image: x}]}}',
  ];
  const text = ['apiVersion: v1', 'kind: List', 'items:', ...item('a', 1), ...item('b', 3)].join('\n');
  // The second item starts on line 12; its replicas are on line 18, at col 11.
  expect(lines(runCli(['lint', '-'], text).stdout)[0])
    .toBe('<stdin>:18:11: XGBoostJob ml/b: spec.xgbReplicaSpecs.Master.replicas is 3; expected 1; the operator rejects an XGBoostJob whose Master does not have one replica [training-operator/replica-count]');
});

test('a syntax error: the parser\'s position', () => {
  expect(lines(runCli(['lint', '-'], 'kind: PyTorchJob\nmetadata:\n  name: [a, b\n').stdout)[0])
    .toMatch(/^<stdin>:4:1: document is ".+"; expected valid YAML \[library\/yaml-syntax\]$/);
});
