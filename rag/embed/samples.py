"""Texts the ONNX export is checked and timed on (``rag.embed.export``): what Folio embeds, in miniature.

Three kinds, because quantisation errors grow with length and with unusual word-pieces: questions as people
type them, single sentences (captions, table rows, code lines, references), and chunk-length passages of
100–250 word-pieces like the ones ingest embeds (prose on several subjects, code, tables, an index page,
OCR noise, formulas; English and seven other languages). Written for this check; no book's text.
"""
from __future__ import annotations

QUESTIONS = [
    "What is a state diagram?",
    "How do I convert a string to an integer in Python?",
    "Wie berechnet man die Determinante einer Matrix?",
    "When did the French Revolution begin?",
    "Quelle est la différence entre un virus et une bactérie ?",
    "¿Cómo se calcula el interés compuesto?",
    "symptoms of vitamin D deficiency",
    "octave plot two functions in the same figure",
    "Что такое рекурсия?",
    "光合作用是什么？",
    "gradient descent diverges when the learning rate is too high",
    "How do I change the time signature in the middle of a piece?",
]

SENTENCES = [
    "A state diagram shows the value of each variable; this kind of figure is called a state diagram.",
    "def print_twice(bruce):\n    print(bruce)\n    print(bruce)",
    "Ein topologischer Raum heißt kompakt, wenn jede offene Überdeckung eine endliche Teilüberdeckung besitzt.",
    "Tòa án nhân dân tối cao công bố án lệ về việc xác định thời hiệu khởi kiện.",
    "Speakers should rehearse aloud, standing, with the notes they will use, and time each part of the speech.",
    "Table 2. Results | Model | Accuracy | F1 |---|---|---| baseline | 0.71 | 0.69",
    "Figure 12.3: A tuple assignment swaps two variables without a temporary one.",
    "References [1] A. Author, Title of a paper, Journal 12 (2003) 1–20. [2] B. Writer, Another title, 2011.",
    "Mitochondria produce most of the cell's adenosine triphosphate, which the cell uses as chemical energy.",
    "x = linspace (0, 2*pi, 100); plot (x, sin (x), \"-r\", x, cos (x), \"--b\"); legend (\"sin\", \"cos\");",
    "\\relative c' { \\time 3/4 c4 d e | f2. | \\time 4/4 g4 a b c | }",
    "Die Versammlung beschloss mit großer Mehrheit, die Sitzung auf den folgenden Dienstag zu vertagen.",
]

PASSAGES = [
    # programming prose
    "A function is a named sequence of statements that performs a computation. When you define a function, you "
    "specify the name and the sequence of statements. Later, you can call the function by name. The expression in "
    "parentheses is called the argument of the function, and the result is called the return value. It is common "
    "to say that a function takes an argument and returns a result. Python provides functions that convert values "
    "from one type to another: int takes any value and converts it to an integer if it can, or complains "
    "otherwise. It can convert floating-point values to integers, but it does not round off; it chops off the "
    "fraction part. Why is it worth the trouble to divide a program into functions? Creating a new function gives "
    "you an opportunity to name a group of statements, which makes your program easier to read and debug.",
    "Recursion is when a function calls itself. A recursive function needs a base case, a conditional branch that "
    "does not make a recursive call; without one, the recursion never ends, and Python reports that the maximum "
    "recursion depth was exceeded. Every time a function gets called, Python creates a frame to contain its local "
    "variables and parameters. For a recursive function, there might be more than one frame on the stack at the "
    "same time. A stack diagram shows these frames, each with the name of its function beside it, stacked in the "
    "order of the calls. The bottom of the stack is the frame for __main__, and the top is the function running "
    "now. When the base case is reached, each frame returns its value to the one below it, and the stack unwinds.",
    # code
    "def histogram(s):\n    d = dict()\n    for c in s:\n        if c not in d:\n            d[c] = 1\n        else:\n"
    "            d[c] += 1\n    return d\n\n\ndef invert_dict(d):\n    inverse = dict()\n    for key in d:\n"
    "        val = d[key]\n        if val not in inverse:\n            inverse[val] = [key]\n        else:\n"
    "            inverse[val].append(key)\n    return inverse\n\n\nh = histogram('parrot')\nprint(invert_dict(h))\n"
    "# {1: ['p', 'a', 'o', 't'], 2: ['r']}",
    "function [mu, sigma] = describe (x)\n  % DESCRIBE  mean and standard deviation of a vector\n"
    "  if (! isvector (x))\n"
    "    error (\"describe: X must be a vector\");\n  endif\n  n = numel (x);\n  mu = sum (x) / n;\n"
    "  sigma = sqrt (sum ((x - mu) .^ 2) / (n - 1));\nendfunction\n\n>> [m, s] = describe ([2 4 4 4 5 5 7 9])\n"
    "m = 5\ns = 2.1381",
    # science, medicine (abstract-like)
    "Background: Vitamin D deficiency is common in older adults and has been associated with falls and fractures. "
    "Methods: We randomly assigned 2,256 community-dwelling women aged 70 years or older to receive a single annual "
    "oral dose of cholecalciferol or placebo for three to five years. The primary outcomes were falls and fractures. "
    "Results: The rate of falls was 15% higher and the rate of fractures 26% higher in the cholecalciferol group "
    "than in the placebo group, with the increase concentrated in the three months after each dose. Conclusions: "
    "Annual high-dose oral cholecalciferol resulted in an increased risk of falls and fractures; the timing "
    "suggests that large intermittent doses should be avoided.",
    "Messenger RNA carries the genetic information copied from DNA to the ribosome, where it is translated into a "
    "protein. Each group of three nucleotides, a codon, specifies one amino acid, and transfer RNA molecules bring "
    "the matching amino acids in order. Mutations that change a single nucleotide may leave the protein unchanged, "
    "replace one amino acid with another, or introduce a premature stop codon that truncates it. In eukaryotic "
    "cells, the primary transcript is processed before it leaves the nucleus: a cap is added to the 5' end, a "
    "poly(A) tail to the 3' end, and introns are removed by the spliceosome. Alternative splicing lets one gene "
    "encode several proteins with different functions in different tissues.",
    "Black holes form when massive stars collapse at the end of their lives. The boundary from which nothing, not "
    "even light, can escape is called the event horizon; its radius grows in proportion to the mass. Matter falling "
    "towards a black hole forms an accretion disk that heats up through friction and emits X-rays, which is how most "
    "black holes are detected. In 2015 the LIGO detectors observed gravitational waves from two black holes merging "
    "more than a billion light-years away, confirming a prediction of general relativity made a century earlier.",
    # humanities, law, practical
    "The French Revolution began in 1789 with the meeting of the Estates-General, called by Louis XVI to address the "
    "crown's debts. When the Third Estate declared itself a National Assembly and swore not to disperse until France "
    "had a constitution, the old order started to collapse. The storming of the Bastille on 14 July became its "
    "symbol. Over the following years the monarchy was abolished, the king was tried and executed, and the "
    "revolutionary government fought wars against most of Europe while the Terror silenced opponents at home. The "
    "period ended with Napoleon Bonaparte's coup in 1799, but its ideas of citizenship and rights outlived it.",
    "Before you give a speech, find out who the audience is and why they came. A speech to experts can assume "
    "vocabulary that a general audience needs explained. Choose one specific purpose and state it in a single "
    "sentence; everything in the speech should serve it. Organise the body in two to five main points, arranged "
    "in an order the listeners can follow, chronological, spatial, causal or topical, and connect them with "
    "transitions that say where you have been and where you are going. The introduction should gain attention, "
    "reveal the topic, establish your credibility and preview the body; the conclusion should signal the end and "
    "reinforce the central idea.",
    "A contract is formed when one party makes an offer, the other accepts it, and both intend to be legally bound. "
    "The offer must be definite enough that a court can tell what was promised. Acceptance must mirror the offer; "
    "an answer that changes its terms is a counter-offer, which rejects the original. Consideration, something of "
    "value given by each side, distinguishes a contract from a gift. A party who did not perform may be ordered to "
    "pay damages that put the other in the position they would have been in had the contract been performed, but "
    "not damages for losses that were unforeseeable when the contract was made.",
    "Tomatoes need full sun, at least six hours a day, and a deep watering twice a week in summer rather than a "
    "little every day; the soil should dry slightly between waterings so that the roots grow downwards. Mulch "
    "keeps moisture in and stops soil splashing onto the lower leaves, which spreads blight. Pinch out the side "
    "shoots of cordon varieties as they appear, tie the main stem to its cane every week, and stop the plant when "
    "it has set four or five trusses. Feed with a high-potash fertiliser once the first fruits have formed.",
    # music notation
    "To change the time signature in the middle of a piece, place a \\time command where the change happens; bar "
    "lines and beaming follow the new meter from that point. A partial measure at the start, an upbeat, is entered "
    "with \\partial followed by its duration. Key changes work the same way with \\key and a mode such as \\major "
    "or \\minor. If several staves share the meter, put the command in every staff or in a separate global "
    "variable combined with each music expression, so that the staves do not disagree about where the bars fall.",
    # maths
    "Let A be an n × n matrix. The determinant det(A) is nonzero exactly when A is invertible. It can be computed by "
    "cofactor expansion along any row, det(A) = Σ_j (−1)^(i+j) a_ij M_ij, where M_ij is the determinant of the "
    "matrix obtained by deleting row i and column j, but Gaussian elimination is far cheaper: reduce A to an upper "
    "triangular matrix U, multiply the diagonal entries of U, and change the sign once for every row exchange. For "
    "example, for A = [[2, 1], [4, 3]] we get det(A) = 2·3 − 1·4 = 2.",
    # table, index, references, OCR noise, repetition
    "Table 4.2: Compound interest on 1,000 at 5% per year | Year | Simple | Annual | Monthly | |---|---|---|---| | 1 "
    "| 1,050.00 | 1,050.00 | 1,051.16 | | 2 | 1,100.00 | 1,102.50 | 1,104.94 | | 5 | 1,250.00 | 1,276.28 | 1,283.36 "
    "| | 10 | 1,500.00 | 1,628.89 | 1,647.01 | | 20 | 2,000.00 | 2,653.30 | 2,712.64 | The monthly column uses "
    "(1 + 0.05/12)^(12n).",
    "Index. abs, 45; accumulator, 112, 118; algorithm, 3, 97; aliasing, 109–111, 146; and operator, 52; append "
    "method, 104, 110; argument, 20, 24, 27, 29; assignment, 11, 87; augmented, 107; tuple, 140; attribute, 168, "
    "183; __dict__, 229; class, 186; initializing, 183; instance, 168; AttributeError, 196; base case, 57, 62; "
    "benchmarking, 155; binary search, 116; bisection, debugging by, 90; body, 22, 28, 88; bool type, 52; "
    "boolean expression, 51; borrowing, subtraction with, 93, 190; bracket operator, 85, 101, 121.",
    "[1] Smith J, Lee K. Randomised trial of annual vitamin D in older women. JAMA. 2010;303(18):1815–22. "
    "[2] García M, Chen L, Okafor N. Splicing variants in human tissues. Nat Genet. 2014;46(9):1012–9. "
    "[3] Abbott BP, et al. Observation of gravitational waves from a binary black hole merger. Phys Rev Lett. "
    "2016;116:061102. [4] Downey A. Think Python. 2nd ed. Sebastopol: O'Reilly; 2015. [5] Lucas SE. The Art of "
    "Public Speaking. 11th ed. New York: McGraw-Hill; 2012. [6] Strang G. Linear Algebra and Its Applications.",
    "Tbe resu1ts of tlie survey were tabu-\nlated by hand. Of 1,204 farms visited in tbe spring of 1931, 812 re-\n"
    "ported a loss of more tban balf their crop ; tbe remainder , chiefly in tbe nortb-\nern counties , reported "
    "losses of one quarter or less. Tbe committee tberefore recommends ( a) an emergency loan at low in- terest, "
    "(b) seed for tbe following season, and (c) a survey of soil erosion in tbe worst affected districts.",
    " ".join(["The interpreter reads each line, evaluates the expression and prints the result;"] * 14),
    # other languages
    "Ein topologischer Raum heißt kompakt, wenn jede offene Überdeckung eine endliche Teilüberdeckung besitzt. Im "
    "euklidischen Raum sind nach dem Satz von Heine-Borel genau die abgeschlossenen und beschränkten Mengen kompakt. "
    "Stetige Bilder kompakter Räume sind wieder kompakt, und eine stetige reellwertige Funktion auf einem kompakten "
    "Raum nimmt Maximum und Minimum an. Daraus folgt etwa, dass jedes Polynom auf einem abgeschlossenen Intervall "
    "beschränkt ist. In unendlichdimensionalen normierten Räumen ist die abgeschlossene Einheitskugel dagegen nie "
    "kompakt; dieser Unterschied ist einer der Gründe, warum die Funktionalanalysis schwächere Topologien benutzt.",
    "Les virus ne sont pas des cellules : ils n'ont ni métabolisme propre ni ribosomes, et ne peuvent se multiplier "
    "qu'à l'intérieur d'une cellule hôte dont ils détournent la machinerie. Les bactéries, au contraire, sont des "
    "organismes unicellulaires complets, capables de se diviser seules. C'est pourquoi les antibiotiques, qui "
    "visent la paroi bactérienne ou les ribosomes bactériens, sont sans effet sur une grippe ou un rhume. Contre "
    "les virus, on utilise des vaccins, qui préparent le système immunitaire, et quelques médicaments antiviraux "
    "qui bloquent une étape précise de leur cycle de réplication.",
    "El interés compuesto se calcula sobre el capital inicial y también sobre los intereses acumulados en los "
    "periodos anteriores. Si se invierte un capital C a una tasa anual r durante n años, el monto final es "
    "C(1 + r)^n. Con una capitalización mensual, la tasa se divide entre doce y el exponente se multiplica por "
    "doce. La diferencia con el interés simple es pequeña al principio, pero crece con el tiempo: a veinte años y "
    "al cinco por ciento, el capital casi se triplica con interés compuesto y solo se duplica con interés simple.",
    "Bộ luật Dân sự quy định thời hiệu khởi kiện là thời hạn mà chủ thể được quyền khởi kiện để yêu cầu Tòa án "
    "giải quyết vụ án dân sự bảo vệ quyền và lợi ích hợp pháp bị xâm phạm; nếu thời hạn đó kết thúc thì mất quyền "
    "khởi kiện. Thời hiệu khởi kiện về hợp đồng là ba năm, kể từ ngày người có quyền yêu cầu biết hoặc phải biết "
    "quyền và lợi ích hợp pháp của mình bị xâm phạm. Tòa án chỉ áp dụng quy định về thời hiệu theo yêu cầu của "
    "một bên hoặc các bên với điều kiện yêu cầu này phải được đưa ra trước khi Tòa án cấp sơ thẩm ra bản án.",
    "Рекурсия — это способ определения функции через саму себя. Рекурсивная функция должна иметь базовый случай, "
    "в котором она возвращает результат без нового вызова; иначе вызовы никогда не закончатся и программа "
    "исчерпает стек. Классический пример — вычисление факториала: n! равен n, умноженному на (n − 1)!, а 0! "
    "равен единице. Каждый вызов получает собственный кадр стека с локальными переменными, поэтому глубокая "
    "рекурсия расходует память, и в таких случаях её часто заменяют циклом.",
    "光合作用是植物、藻类和某些细菌利用光能，把二氧化碳和水转化为葡萄糖并释放氧气的过程。它分为两个阶段："
    "光反应在叶绿体的类囊体膜上进行，把光能转化为化学能，生成三磷酸腺苷和还原型辅酶；暗反应在叶绿体基质中进行，"
    "利用这些产物通过卡尔文循环固定二氧化碳。光照强度、二氧化碳浓度和温度都会影响光合作用的速率。",
]

SAMPLES: list[str] = QUESTIONS + SENTENCES + PASSAGES
