import json,re,collections
g=json.load(open('gt.json'))
F=[json.loads(l) for l in open('findings.jsonl')]
# compile errors from build1.log (each error message quotes the argument and phrase)
errs=[]
for l in open('build1.log'):
    m=re.match(r'error(?:\[E0080\]: evaluation panicked: C12:|:) the description of `(\w+)` says "(.*?)"',l)
    if m: errs.append(dict(argument=m.group(1),phrase=m.group(2),msg=l.strip()))
def toolmatch(item,tool): return tool in item['tool'].split('/')
def find_item(tool,arg,phrase):
    ph=phrase.lstrip(': ').strip()
    c=[r for r in g if (tool is None or toolmatch(r,tool)) and ph in r['text']]
    if arg:
        leaf=arg.split('.')[-1].replace('[]','')
        c2=[r for r in c if r['arg'].split('.')[-1]==leaf]
        if c2: c=c2
    assert len(c)==1,(tool,arg,phrase,[x['n'] for x in c])
    return c[0]
for e in errs:
    e['item']=find_item(None,e['argument'],e['phrase'])['n']
for f in F:
    f['item']=find_item(f['tool'],f['argument'],f['phrase'])['n']
json.dump(dict(errors=errs,findings=F),open('mapped.json','w'),indent=1)
byn={r['n']:r for r in g}
core=lambda r: not (r['arg'].startswith('type ') or r['arg'].startswith('variant '))
K=collections.Counter(r['kind'] for r in g)
ek=collections.Counter(byn[e['item']]['kind'] for e in errs)
print('items',len(g),dict(K),'core',dict(collections.Counter(r['kind'] for r in g if core(r))))
print('compile errors',len(errs),dict(ek))
hit=set(e['item'] for e in errs)|set(f['item'] for f in F)
BC=[r for r in g if r['kind'] in 'BC']
print('recall',sum(r['n'] in hit for r in BC),'/',len(BC))
for k in 'BC':
    xs=[r for r in g if r['kind']==k]; print(' ',k,sum(r['n'] in hit for r in xs),'/',len(xs))
flagged=[byn[n] for n in sorted(hit)]
print('audit precision by item (B/C items flagged / items flagged):',sum(r['kind']!='A' for r in flagged),'/',len(flagged))
print('findings by level', collections.Counter(f['level'] for f in F), 'findings on kind', collections.Counter(byn[f['item']]['kind'] for f in F))
print('\nFALSE ALARMS (A items):')
for r in flagged:
    if r['kind']=='A': print(r)
print('\nMISSES:')
for r in BC:
    if r['n'] not in hit: print(f"{r['n']} | {r['kind']} | {r['tool']} | {r['arg']} | {r['text']} | {r['note']}")
print('\nmapping:')
for f in F: print(f['item'],byn[f['item']]['kind'],f['tool'],f['argument'],f['level'],f.get('check'),f['recognizer'],'|',f['phrase'])
