import sys,re
# usage: ack.py file:line ... (line = line of the argument name as reported)
P='prose = "trial: compile error recorded"'
for spec in sys.argv[1:]:
    f,ln=spec.split(':'); ln=int(ln)
    L=open(f).read().split('\n')
    i=ln-1
    # find the attribute just above the argument line (skip to previous #[arg( ... )] directly above)
    j=i-1
    if L[j].strip().startswith('#[arg('):
        L[j]=L[j].replace('#[arg(', '#[arg('+P+', ',1)
    elif L[j].strip().startswith('///'):
        ind=re.match(r'\s*',L[i]).group(0)
        L.insert(i, ind+'#[arg('+P+')]')
    else:
        sys.exit('unexpected '+spec+' '+L[j])
    open(f,'w').write('\n'.join(L))
    print('acked',spec, L[i-1].strip() if L[i-1].strip().startswith('#[arg') else L[i].strip())
