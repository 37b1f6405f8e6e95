# record -- CMD needs somewhere to write
args: record -- python3 x.py
exit: 2
stderr: record -- CMD needs -o FILE
