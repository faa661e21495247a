// Reads each folder (deploy/k8s, deploy/agones) as kustomize would and checks it offline: every
// object against the Kubernetes API's schemas (kubernetes-models; an Agones Fleet's pod template
// as a PodTemplate, its own fields by hand), then what the schemas cannot see: the names one
// object gives another (Services and their pods and ports, the Secret's keys, the budget's pods,
// the Ingress's backends), that every flag the nodes are given is one plateau-server knows, and
// the promises of docs/kubernetes.md (node id and address from the pod, readiness on /healthz, a
// preStop pause within the grace period, requests, /metrics not routed to the world; with
// Agones, the SDK on and the rooms counter declared).
// Usage: node validate.mjs SERVER_HELP_FILE DIR...
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";

const [helpFile, ...dirs] = process.argv.slice(2);
const help = readFileSync(helpFile, "utf8");
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };
const modules = {
  v1: await import("kubernetes-models/v1"),
  "apps/v1": await import("kubernetes-models/apps/v1"),
  "policy/v1": await import("kubernetes-models/policy/v1"),
  "networking.k8s.io/v1": await import("kubernetes-models/networking.k8s.io/v1"),
};
// Every Secret key the pods read is one the documented `kubectl create secret` makes.
const SECRET = "plateau-secrets";
const SECRET_KEYS = new Set(["link-secret", "postgres-password"]);

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
const podTemplate = (w) => (w.kind === "Fleet" ? w.spec.template.spec.template : w.spec.template);

// The objects of a kustomize folder, each checked against its schema.
function load(dir) {
  const kustomization = parse(readFileSync(join(dir, "kustomization.yaml"), "utf8"));
  const listed = kustomization.resources ?? [];
  const files = readdirSync(dir).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
  for (const f of files) check(listed.includes(f), `${dir}: ${f} is not in kustomization.yaml's resources`);
  for (const f of listed) check(files.includes(f), `${dir}: kustomization.yaml lists ${f}, which is missing`);
  const objects = [];
  for (const f of listed.filter((x) => files.includes(x))) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, f), "utf8"))) {
      if (doc.errors.length) { problems.push(`${f}: ${doc.errors[0].message}`); continue; }
      const o = doc.toJS();
      if (!o) continue;
      if (o.apiVersion === "agones.dev/v1" && o.kind === "Fleet") {
        checkFleet(f, o);
      } else {
        const Model = modules[o.apiVersion]?.[o.kind];
        if (!Model) { problems.push(`${f}: no schema for ${o.apiVersion} ${o.kind}`); continue; }
        try {
          new Model(o).validate();
        } catch (e) {
          problems.push(`${f}: ${o.kind} ${o.metadata?.name}: ${e.message}`);
        }
      }
      objects.push(o);
    }
  }
  return objects;
}

// An Agones Fleet: its pod template against the API's schema, its own fields by hand.
function checkFleet(file, o) {
  const gs = o.spec?.template?.spec;
  check(Number.isInteger(o.spec?.replicas) && gs, `${file}: a Fleet needs replicas and a GameServer template`);
  if (!gs) return;
  try {
    new modules.v1.PodTemplate({ metadata: { name: o.metadata.name }, template: gs.template }).validate();
  } catch (e) {
    problems.push(`${file}: Fleet ${o.metadata.name}'s pod template: ${e.message}`);
  }
  const container = gs.template?.spec?.containers?.[0];
  for (const p of gs.ports ?? []) {
    check(["Dynamic", "Static", "Passthrough", "None"].includes(p.portPolicy), `${file}: port policy ${p.portPolicy}`);
    check((container?.ports ?? []).some((c) => c.containerPort === p.containerPort),
      `${file}: the Fleet's port ${p.containerPort} is not the container's`);
  }
  check(gs.health && gs.health.disabled === false, `${file}: the GameServers' health pings are off`);
  check(Number.isInteger(gs.counters?.rooms?.capacity), `${file}: no counter "rooms" (the nodes report their rooms in it)`);
  check((container?.args ?? []).includes("--agones=true"), `${file}: the nodes do not talk to the Agones SDK`);
}

// The names objects give each other.
function checkReferences(dir, objects) {
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const named = (kind, name) => byKind(kind).find((o) => o.metadata.name === name);
  const workloads = [...byKind("StatefulSet"), ...byKind("Fleet")];
  const podsOf = (selector) => workloads.filter((w) => matches(selector, podTemplate(w).metadata.labels));
  for (const svc of byKind("Service")) {
    const pods = podsOf(svc.spec.selector);
    check(pods.length === 1, `${dir}: Service ${svc.metadata.name} selects ${pods.length} workloads`);
    for (const port of svc.spec.ports) {
      const has = pods.some((w) => podTemplate(w).spec.containers.some((c) =>
        (c.ports ?? []).some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)));
      check(has, `${dir}: Service ${svc.metadata.name}: no container port ${port.targetPort}`);
    }
  }
  for (const w of byKind("StatefulSet")) {
    check(named("Service", w.spec.serviceName), `${dir}: StatefulSet ${w.metadata.name}: no Service ${w.spec.serviceName}`);
    check(matches(w.spec.selector.matchLabels, w.spec.template.metadata.labels),
      `${dir}: StatefulSet ${w.metadata.name}: its selector does not select its own pods`);
  }
  for (const pdb of byKind("PodDisruptionBudget")) {
    check(podsOf(pdb.spec.selector.matchLabels).length === 1, `${dir}: PodDisruptionBudget ${pdb.metadata.name} selects no workload`);
  }
  for (const ing of byKind("Ingress")) {
    for (const rule of ing.spec.rules) {
      for (const p of rule.http.paths) {
        const svc = named("Service", p.backend.service.name);
        check(svc && svc.spec.ports.some((x) => x.name === p.backend.service.port.name || x.port === p.backend.service.port.number),
          `${dir}: Ingress ${ing.metadata.name}: ${p.path} goes to a Service port that does not exist`);
        // /metrics is for the cluster's scraper only: no path of the world's may reach it.
        check(!(p.pathType === "Prefix" && "/metrics".startsWith(p.path)), `${dir}: the Ingress routes /metrics (${p.path})`);
      }
    }
  }
  for (const w of workloads) {
    const spec = podTemplate(w).spec;
    for (const c of spec.containers) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) check(ref.name === SECRET && SECRET_KEYS.has(ref.key), `${dir}: ${w.metadata.name}: env ${e.name} reads an unknown secret key`);
      }
    }
    for (const v of spec.volumes ?? []) {
      if (!v.secret) continue;
      check(v.secret.secretName === SECRET, `${dir}: ${w.metadata.name}: a volume of an unknown Secret`);
      for (const item of v.secret.items ?? []) check(SECRET_KEYS.has(item.key), `${dir}: ${w.metadata.name}: unknown key ${item.key}`);
    }
  }
  const nodes = named("StatefulSet", "plateau") ?? named("Fleet", "plateau");
  check(nodes, `${dir}: no StatefulSet or Fleet plateau`);
  if (nodes) checkNodes(dir, nodes, named);
}

// The Plateau nodes' pods: their flags, their identity, their probes and their stop.
function checkNodes(dir, nodes, named) {
  const spec = podTemplate(nodes).spec;
  const c = spec.containers[0];
  const args = c.args ?? [];
  const flag = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  for (const a of args) {
    const name = a.match(/^--([a-z-]+)=/)?.[1];
    check(name && help.includes(`--${name} `), `${dir}: the nodes get ${a}, which plateau-server does not know`);
  }
  const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e]));
  check(flag("node-id") === "$(POD_NAME)" && env.POD_NAME?.valueFrom?.fieldRef?.fieldPath === "metadata.name",
    `${dir}: the node id is not the pod's name`);
  check(/^\$\(POD_IP\):8080$/.test(flag("node-address") ?? "") && env.POD_IP?.valueFrom?.fieldRef?.fieldPath === "status.podIP",
    `${dir}: the node's address is not its pod's IP and port`);
  check(flag("store") && !/password/i.test(flag("store")) && env.PGPASSWORD,
    `${dir}: the database's password must come from the Secret, not the command line`);
  const secretFile = flag("link-secret-file") ?? "";
  check((c.volumeMounts ?? []).some((m) => secretFile.startsWith(m.mountPath + "/")), `${dir}: the link secret file is not on a mounted volume`);
  check(c.readinessProbe?.httpGet?.path === "/healthz", `${dir}: readiness is not /healthz`);
  const pause = Number(c.lifecycle?.preStop?.exec?.command?.at(-1));
  check(pause > 0 && spec.terminationGracePeriodSeconds >= pause + 2 + 5,
    `${dir}: the preStop pause and the 2 s drain do not fit in the grace period`);
  check(c.resources?.requests?.cpu && c.resources?.requests?.memory, `${dir}: the nodes request no CPU or memory`);
  check(flag("public-metrics") === "true", `${dir}: /metrics answers loopback only without --public-metrics`);
  if (nodes.kind === "StatefulSet") {
    check(podTemplate(nodes).metadata.annotations?.["prometheus.io/path"] === "/metrics", `${dir}: /metrics is not scraped`);
    check(named("Service", nodes.spec.serviceName)?.spec.clusterIP === "None", `${dir}: the nodes' Service is not headless`);
  }
  check(nodes.spec.replicas >= 2, `${dir}: one node cannot take another's rooms over`);
}

let total = 0;
for (const dir of dirs) {
  const objects = load(dir);
  checkReferences(dir, objects);
  total += objects.length;
  console.log(`${dir}: ${objects.map((o) => o.kind).join(", ")}`);
}
if (problems.length) {
  for (const p of problems) console.error(`FAIL: ${p}`);
  process.exit(1);
}
console.log(`${total} objects valid`);
