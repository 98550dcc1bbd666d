import * as fs from 'fs';
import * as ts from 'typescript';

/** How a property of a cdk8s-plus-28 `k8s` interface is typed. */
export type K8sPropType =
  | { readonly kind: 'ref'; readonly name: string }
  | { readonly kind: 'array'; readonly of: K8sPropType }
  | { readonly kind: 'map'; readonly of: K8sPropType }
  | { readonly kind: 'quantity' }
  | { readonly kind: 'intOrString' }
  | { readonly kind: 'primitive' };

/**
 * The Kubernetes core types that cdk8s-plus-28 exports as `k8s` (Kubernetes 1.28), read from
 * its declaration file so that the generator knows which fields each type already covers.
 */
export class K8sCatalog {
  public static load(): K8sCatalog {
    const file = require.resolve('cdk8s-plus-28/lib/imports/k8s.d.ts');
    return new K8sCatalog(fs.readFileSync(file, 'utf8'));
  }

  private readonly interfaces = new Map<string, Map<string, K8sPropType>>();

  public constructor(declarations: string) {
    const source = ts.createSourceFile('k8s.d.ts', declarations, ts.ScriptTarget.Latest, false);
    const names = new Set<string>();
    source.forEachChild(node => {
      if (ts.isInterfaceDeclaration(node)) names.add(node.name.text);
    });
    source.forEachChild(node => {
      if (!ts.isInterfaceDeclaration(node)) return;
      const props = new Map<string, K8sPropType>();
      for (const member of node.members) {
        if (ts.isPropertySignature(member) && member.type) {
          props.set(member.name.getText(source).replace(/^'|'$/g, ''), classify(member.type, names, source));
        }
      }
      this.interfaces.set(node.name.text, props);
    });
  }

  /** The properties of one interface, by their camel-case name, or undefined if there is no such interface. */
  public props(typeName: string): ReadonlyMap<string, K8sPropType> | undefined {
    return this.interfaces.get(typeName);
  }
}

function classify(node: ts.TypeNode, interfaces: Set<string>, source: ts.SourceFile): K8sPropType {
  if (ts.isArrayTypeNode(node)) return { kind: 'array', of: classify(node.elementType, interfaces, source) };
  if (ts.isTypeLiteralNode(node)) {
    const index = node.members.find(ts.isIndexSignatureDeclaration);
    if (index?.type) return { kind: 'map', of: classify(index.type, interfaces, source) };
    return { kind: 'primitive' };
  }
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText(source);
    if (name === 'Quantity') return { kind: 'quantity' };
    if (name === 'IntOrString') return { kind: 'intOrString' };
    if (interfaces.has(name)) return { kind: 'ref', name };
  }
  return { kind: 'primitive' };
}
