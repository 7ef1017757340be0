"""The files AttnViz reads and writes, one module per format; core/io.py picks one by the suffix.

  document.py       a Scenario as a document (a dict) and back, every field checked on the way in
  scenario_json.py  a scenario saved as JSON, which people can read and diff
  scenario_npz.py   a scenario too large for JSON: the same document as a JSON header, its arrays beside it
  model_arrays.py   a model's attention dumped by other tools: tokens and q, k, v or weights, per layer,
                    in an .npz or a folder of .npy files
  npz.py            the .npz / .npy container: headers first, data one layer at a time; and writing one
  table_csv.py      weights and vectors as tables: CSV, and the JSON of `attnviz weights`
"""
