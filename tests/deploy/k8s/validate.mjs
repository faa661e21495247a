// Reads deploy/k8s as kustomize would and checks it offline: every object against the
// Kubernetes API's schemas (kubernetes-models), then what the schemas cannot see: the names one
// object gives another (Services and their pods, ports, the Secret's keys, the budget's pods),
// that every flag the nodes are given is one plateau-server knows, and the promises of
// docs/multinode.md (node id from the pod, readiness on /healthz, a preStop pause within the
// grace period, requests, /metrics not routed to the world).
// Usage: node validate.mjs DEPLOY_K8S_DIR SERVER_HELP_FILE
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";

const [dir, helpFile] = process.argv.slice(2);
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };

const kustomization = parse(readFileSync(join(dir, "kustomization.yaml"), "utf8"));
const listed = kustomization.resources ?? [];
const files = readdirSync(dir).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
for (const f of files) check(listed.includes(f), `${f} is not in kustomization.yaml's resources`);
for (const f of listed) check(files.includes(f), `kustomization.yaml lists ${f}, which is missing`);

const modules = {
  v1: await import("kubernetes-models/v1"),
  "apps/v1": await import("kubernetes-models/apps/v1"),
  "policy/v1": await import("kubernetes-models/policy/v1"),
  "networking.k8s.io/v1": await import("kubernetes-models/networking.k8s.io/v1"),
};
const objects = [];
for (const f of listed.filter((x) => files.includes(x))) {
  for (const doc of parseAllDocuments(readFileSync(join(dir, f), "utf8"))) {
    if (doc.errors.length) { problems.push(`${f}: ${doc.errors[0].message}`); continue; }
    const o = doc.toJS();
    if (!o) continue;
    const Model = modules[o.apiVersion]?.[o.kind];
    if (!Model) { problems.push(`${f}: no schema for ${o.apiVersion} ${o.kind}`); continue; }
    try {
      new Model(o).validate();
    } catch (e) {
      problems.push(`${f}: ${o.kind} ${o.metadata?.name}: ${e.message}`);
    }
    objects.push({ file: f, ...o });
  }
}

const byKind = (kind) => objects.filter((o) => o.kind === kind);
const named = (kind, name) => byKind(kind).find((o) => o.metadata.name === name);
const matches = (selector, labels) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
const workloads = byKind("StatefulSet");
const podsOf = (selector) => workloads.filter((w) => matches(selector, w.spec.template.metadata.labels));

// Services select pods, and name ports those pods have.
for (const svc of byKind("Service")) {
  const pods = podsOf(svc.spec.selector);
  check(pods.length === 1, `Service ${svc.metadata.name} selects ${pods.length} workloads`);
  for (const port of svc.spec.ports) {
    const has = pods.some((w) => w.spec.template.spec.containers.some((c) =>
      (c.ports ?? []).some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)));
    check(has, `Service ${svc.metadata.name}: no container port ${port.targetPort}`);
  }
}
for (const w of workloads) {
  const svc = named("Service", w.spec.serviceName);
  check(svc, `StatefulSet ${w.metadata.name}: no Service ${w.spec.serviceName}`);
  check(matches(w.spec.selector.matchLabels, w.spec.template.metadata.labels),
    `StatefulSet ${w.metadata.name}: its selector does not select its own pods`);
}
for (const pdb of byKind("PodDisruptionBudget")) {
  check(podsOf(pdb.spec.selector.matchLabels).length === 1, `PodDisruptionBudget ${pdb.metadata.name} selects no workload`);
}
for (const ing of byKind("Ingress")) {
  for (const rule of ing.spec.rules) {
    for (const p of rule.http.paths) {
      const svc = named("Service", p.backend.service.name);
      check(svc && svc.spec.ports.some((x) => x.name === p.backend.service.port.name || x.port === p.backend.service.port.number),
        `Ingress ${ing.metadata.name}: ${p.path} goes to a Service port that does not exist`);
      // /metrics is for the cluster's scraper only: no path of the world's may reach it.
      check(!(p.pathType === "Prefix" && "/metrics".startsWith(p.path)), `Ingress routes /metrics (${p.path})`);
    }
  }
}

// Every Secret key the pods read is one the documented `kubectl create secret` makes.
const secretKeys = new Set(["link-secret", "postgres-password"]);
for (const w of workloads) {
  const spec = w.spec.template.spec;
  for (const c of spec.containers) {
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) check(ref.name === "plateau-secrets" && secretKeys.has(ref.key), `${w.metadata.name}: env ${e.name} reads an unknown secret key`);
    }
  }
  for (const v of spec.volumes ?? []) {
    if (!v.secret) continue;
    check(v.secret.secretName === "plateau-secrets", `${w.metadata.name}: volume of an unknown Secret`);
    for (const item of v.secret.items ?? []) check(secretKeys.has(item.key), `${w.metadata.name}: unknown key ${item.key}`);
  }
}

// The nodes.
const nodes = named("StatefulSet", "plateau");
check(nodes, "no StatefulSet plateau");
if (nodes) {
  const spec = nodes.spec.template.spec;
  const c = spec.containers[0];
  const help = readFileSync(helpFile, "utf8");
  const args = c.args ?? [];
  const flag = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  for (const a of args) {
    const name = a.match(/^--([a-z-]+)=/)?.[1];
    check(name && help.includes(`--${name} `), `the nodes get ${a}, which plateau-server does not know`);
  }
  const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e]));
  check(flag("node-id") === "$(POD_NAME)" && env.POD_NAME?.valueFrom?.fieldRef?.fieldPath === "metadata.name",
    "the node id is not the pod's name");
  check(/^\$\(POD_IP\):8080$/.test(flag("node-address") ?? "") && env.POD_IP?.valueFrom?.fieldRef?.fieldPath === "status.podIP",
    "the node's address is not its pod's IP and port");
  check(flag("store") && !/password/i.test(flag("store")) && env.PGPASSWORD, "the database's password must come from the Secret, not the command line");
  const secretFile = flag("link-secret-file") ?? "";
  check((c.volumeMounts ?? []).some((m) => secretFile.startsWith(m.mountPath + "/")), "the link secret file is not on a mounted volume");
  check(c.readinessProbe?.httpGet?.path === "/healthz", "readiness is not /healthz");
  const pause = Number(c.lifecycle?.preStop?.exec?.command?.at(-1));
  check(pause > 0 && spec.terminationGracePeriodSeconds >= pause + 2 + 5,
    "the preStop pause and the 2 s drain do not fit in the grace period");
  check(c.resources?.requests?.cpu && c.resources?.requests?.memory, "the nodes request no CPU or memory");
  check(nodes.spec.template.metadata.annotations?.["prometheus.io/path"] === "/metrics" && flag("public-metrics") === "true",
    "/metrics is not scraped (it answers loopback only without --public-metrics)");
  const headless = named("Service", nodes.spec.serviceName);
  check(headless?.spec.clusterIP === "None", "the nodes' Service is not headless");
  check(nodes.spec.replicas >= 2, "one node cannot take another's rooms over");
}

if (problems.length) {
  for (const p of problems) console.error(`FAIL: ${p}`);
  process.exit(1);
}
console.log(`deploy/k8s: ${objects.length} objects valid (${objects.map((o) => o.kind).join(", ")})`);
